import { input } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { searchById } from '../lib/operation';
import { path } from '../lib/path';
import { zReport } from '../lib/resources/cashier';

export const findZReport = searchById({
  key: SEARCH.findZReport,
  noun: 'Z-Report',
  display: {
    label: 'Find Z-Report',
    description:
      'Finds a closed till session’s Z-report by its session id. Use it after Till Session Closed to file the day’s totals. Returns the sales totals, expected and counted cash, and the variance in SAR.',
  },
  api: 'cashier',
  input: {
    session_id: input.segmentId({
      label: 'Till Session',
      helpText:
        'Map the Session ID from the Till Session Closed trigger, or the Till Session ID of a receipt from the New Receipt trigger. The cashier interface does not list till sessions, so there is nothing to choose from here.',
      placeholder: '01JDA9Z8Y7X6W5V4T3S2R1Q0P9',
      dynamic: dynamicRef(DROPDOWN.tillSessions),
      required: true,
    }),
  },
  path: (id) => path`/sessions/${id}/z-report`,
  resource: zReport,
  // A Z-report exists only once its session is closed (cashier spec §3); a 409 the spec leaves unnamed says it is
  // still open. The one mapper quotes the cashier's own words after these.
  own: {
    409: {
      kind: 'halt',
      text: {
        en: 'The till session is not closed yet, so it has no Z-report. Its Z-report can be read once the cashier closes the session on the till.',
        ar: 'جلسة الصندوق لم تُغلق بعد، فلا تقرير Z لها. يمكن قراءة تقرير Z بعد أن يغلق الكاشير الجلسة على الصندوق.',
      },
    },
  },
});
