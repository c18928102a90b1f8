import {
  appointmentStartingSoon,
  inputFields,
  performStartingSoon,
  PRIMARY,
} from '../../../../triggers/appointment_starting_soon';
import { SETTINGS } from '../../../../lib/config';
import { languageOf, say } from '../../../../lib/i18n';
import { authDataFrom, CREDENTIAL, CREDENTIAL_TEST, testConnection } from '../../connection';
import { propertyOf, type ZapierField } from '../../fields';
import { AppError } from '../../errors';
import { ICON } from '../../icon';
import type { INodeType, NodeDescription, NodeProperty, PollFunctions } from '../../n8n-types';
import { pollGap } from '../../poll-times';
import { hydrator, inputDataOf, rememberAll, seam, type Remembered } from '../../seam';
import { inN8nError, inN8nErrors } from '../../wording';

type Item = Record<string, unknown>;

const FIELDS = inputFields as ZapierField[];

/** How many appointments a manual test shows: enough to map fields from, without a patient read for every one. */
export const SAMPLE_SIZE = 3;

/**
 * A remembered appointment is kept until a minute past its start: each poll asks for the appointments starting from
 * its own now (inclusive, written to the second), so after that no poll can list it again.
 */
const KEEP_PAST_START_MS = 60_000;
/** An appointment without a readable start is kept as long as the longest window. */
const KEEP_WITHOUT_START_MS = 10_080 * 60_000;

/**
 * Zapier's help speaks of Zapier's polling; here the polls are the node's Poll Times, so the same rule reads as a
 * rule on them.
 */
const MINUTES_HELP = `How long before an appointment starts the workflow should run for it, in minutes: ${SETTINGS.slowestPollMinutes} to 10080 (for example 60 for an hour, 1440 for a day). Each poll picks up the appointments starting within this many minutes, so Poll Times must poll at least that often (Every Minute, or Every X minutes up to this number): each appointment then runs once, between this many minutes and this many minus the poll interval before it starts. A longer interval is refused (a Custom cron expression is checked too), as is fewer than ${SETTINGS.slowestPollMinutes} minutes: an appointment could start between two polls and get no reminder. A moved appointment runs again for its new time.`;

const properties: NodeProperty[] = FIELDS.map((f) =>
  f.key === 'minutes_before'
    ? { ...propertyOf(f), description: MINUTES_HELP, default: String(f.default ?? '') }
    : propertyOf(f),
);

/** What Zapier dedupes a poll's items by: the trigger's primary output fields (the appointment and its start). */
const keyOf = (item: Item) => [...PRIMARY].map((k) => String(item[k])).join('|');

const keepUntil = (item: Item, now: number) => {
  const start = Date.parse(String(item.starts_at));
  return Number.isFinite(start) ? start + KEEP_PAST_START_MS : now + KEEP_WITHOUT_START_MS;
};

/**
 * The app's window finds every appointment only when Minutes Before Start is at least the time between two polls
 * (triggers/appointment_starting_soon.ts); on Zapier that time is the plan's, here it is the node's Poll Times, every
 * mode of them, Custom cron expressions included. A gap the node cannot work out is refused too: a reminder missed
 * in silence is the one outcome the node must not allow.
 */
const refuseSlowPolls = (pollTimes: unknown, minutesBefore: unknown, lang: ReturnType<typeof languageOf>) => {
  const gap = pollGap(pollTimes);
  if ('unreadable' in gap) {
    throw new AppError(
      say(lang, {
        en: `Poll Times cannot be checked against Minutes Before Start: ${gap.unreadable}. Choose Every Minute or Every X, or write the Custom cron expression as 5 or 6 fields (second minute hour day month weekday), e.g. */15 * * * * for every 15 minutes.`,
        ar: `تعذّرت مقارنة Poll Times بقيمة Minutes Before Start: ${gap.unreadable}. اختر Every Minute أو Every X، أو اكتب تعبير cron المخصص بخمسة حقول أو ستة (الثانية الدقيقة الساعة اليوم الشهر يوم الأسبوع)، مثل ‎*/15 * * * *‎ للفحص كل 15 دقيقة.`,
      }),
      'invalid_input',
      400,
    );
  }
  const minutes = Number(minutesBefore);
  if (!Number.isFinite(minutes) || minutes >= gap.minutes) return;
  const between = Number.isFinite(gap.minutes)
    ? { en: `${gap.minutes} minutes`, ar: `${gap.minutes} دقيقة` }
    : { en: 'years: it polls on one day at most', ar: 'سنوات: فهو يفحص في يوم واحد على الأكثر' };
  const finite = Number.isFinite(gap.minutes);
  const atLeast = finite ? `, or set Minutes Before Start to ${gap.minutes} or more` : '';
  const atLeastAr = finite ? `، أو اجعل Minutes Before Start ‏${gap.minutes} أو أكثر` : '';
  throw new AppError(
    say(lang, {
      en: `Minutes Before Start (${minutes}) is less than the time between two polls (${between.en}, from Poll Times): an appointment could start between two polls and its reminder never be sent. Poll more often${atLeast}.`,
      ar: `قيمة Minutes Before Start ‏(${minutes}) أقل من المدة بين فحصين (${between.ar}، حسب Poll Times): قد يبدأ موعد بين فحصين ولا يُرسل تذكيره أبدًا. اجعل الفحص أكثر تكرارًا${atLeastAr}.`,
    }),
    'invalid_input',
    400,
  );
};

/** What the node keeps in the workflow's static data between polls. */
interface Kept {
  seen?: Remembered;
}

/**
 * Appointment Starting Soon as an n8n polling trigger: each poll runs the Zapier trigger's own perform (its window,
 * filters and checks) through the seam, and gives the workflow only the items Zapier's dedupe would let through,
 * with their patient resolved as Zapier resolves the perform's pointer for a new item.
 */
export class ClinicCashierStartingSoonTrigger implements INodeType {
  description: NodeDescription = {
    displayName: 'Clinic & Cashier Appointment Starting Soon Trigger',
    name: 'clinicCashierStartingSoonTrigger',
    icon: ICON,
    group: ['trigger'],
    version: 1,
    description: appointmentStartingSoon.display.description ?? '',
    subtitle: '={{$parameter["minutes_before"] + " minutes before start"}}',
    defaults: { name: 'Appointment Starting Soon' },
    inputs: [],
    outputs: ['main'],
    credentials: [{ name: CREDENTIAL, required: true, testedBy: CREDENTIAL_TEST }],
    polling: true,
    properties,
  };

  methods = { credentialTest: { [CREDENTIAL_TEST]: testConnection } };

  async poll(this: PollFunctions) {
    const manual = this.getMode() === 'manual';
    const kept = this.getWorkflowStaticData('node') as Kept;
    const now = Date.now();
    const seen: Remembered = Object.fromEntries(
      Object.entries(kept.seen ?? {}).filter(([, until]) => until > now),
    );
    const { z, bundle } = seam({
      authData: await authDataFrom(this),
      inputData: inputDataOf(
        Object.fromEntries(FIELDS.map((f) => [f.key, this.getNodeParameter(f.key, '')])),
      ),
    });
    refuseSlowPolls(
      this.getNodeParameter('pollTimes', {}),
      bundle.inputData.minutes_before,
      languageOf(bundle),
    );
    const due = (await inN8nErrors(() => performStartingSoon(z, bundle))) as Item[];
    // A manual test shows the newest and keeps nothing, as a Zap's test does not fill its dedupe.
    const wanted = manual ? due.slice(0, SAMPLE_SIZE) : due.filter((item) => !(keyOf(item) in seen));
    const hydrate = hydrator(z, bundle);
    const items: Item[] = [];
    for (const item of wanted) {
      try {
        items.push(await hydrate(item));
      } catch (err) {
        // A patient read failing (a 429 of a long window's first poll) stops here: the items done so far run and
        // are remembered, the rest are still new to the next poll, which meets the error again if it persists.
        if (!items.length) throw inN8nError(err);
        break;
      }
    }
    if (!manual) {
      rememberAll(seen, Object.fromEntries(items.map((item) => [keyOf(item), keepUntil(item, now)])));
      // Assigned anew, so n8n sees the static data changed and saves it with the execution the items start.
      kept.seen = seen;
    }
    return items.length ? [items.map((json) => ({ json }))] : null;
  }
}
