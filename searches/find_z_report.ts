import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { clientFor, unwrapOne } from '../lib/http';
import { languageOf, say } from '../lib/i18n';
import { labelsOf, parseInput, segmentId } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { path } from '../lib/paths';
import { zReport } from '../lib/resources/cashier';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'session_id',
    label: 'Till Session',
    helpText:
      'Map the Session ID from the Till Session Closed trigger, or the Till Session ID of a receipt from the New Receipt trigger. The cashier interface does not list till sessions, so there is nothing to choose from here.',
    placeholder: '01JDA9Z8Y7X6W5V4T3S2R1Q0P9',
    dynamic: dynamicRef(DROPDOWN.tillSessions),
    required: true,
  },
]);

const Input = lazy((z) => z.object({ session_id: segmentId() }));

export const performFindZReport = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const { status, body } = await clientFor(z_, bundle, 'cashier').attempt(
    'GET',
    path`/sessions/${input.session_id}/z-report`,
    { handle: [404, 409] },
  );
  if (status === 404) return [];
  // A Z-report exists only once its session is closed (cashier spec §3); the 409 says it is still open.
  if (status === 409) throw new z_.errors.HaltedError(notClosed(bundle, body));
  return [zReport.present(unwrapOne(body))];
};

const notClosed = (bundle: Bundle, body: unknown): string => {
  const server = (body as { message?: unknown } | undefined)?.message;
  const said = typeof server === 'string' && server.trim() ? server.trim() : undefined;
  return say(languageOf(bundle), {
    en: `The till session is not closed yet, so it has no Z-report. Its Z-report can be read once the cashier closes the session on the till.${said ? ` The cashier interface said: "${said}"` : ''}`,
    ar: `جلسة الصندوق لم تُغلق بعد، فلا تقرير Z لها. يمكن قراءة تقرير Z بعد أن يغلق الكاشير الجلسة على الصندوق.${said ? ` رد واجهة الكاشير: «${said}»` : ''}`,
  });
};

export const findZReport = defineSearch({
  key: SEARCH.findZReport,
  noun: 'Z-Report',
  display: {
    label: 'Find Z-Report',
    description:
      'Finds a closed till session’s Z-report: sales totals, expected and counted cash, and the variance.',
  },
  operation: {
    inputFields,
    perform: performFindZReport,
    sample: zReport.sample,
    outputFields: zReport.outputFields,
  },
});
