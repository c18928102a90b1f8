/**
 * The engine the core runs in, in one place: Zapier, or n8n through its seam (n8n-nodes-clinic-cashier/src/seam.ts).
 * What differs between them is said here as data, and read where it matters, never by testing an engine's name: its
 * rules, and the words the core's help and messages use for the host's things (a Zap in Zapier, a workflow in n8n).
 * Each adapter supplies its own: Zapier's are here, as the default; n8n's are the package's (src/host.ts).
 */
import type { Bundle } from 'zapier-platform-core';
import type { Bilingual } from './i18n';

/**
 * The host's words, each as the core's sentences use it ("Bilingual" where a message says it, English where only
 * help does). A sentence of the core says what is true everywhere and takes from here what is the host's: a name,
 * where a setting is, what replays a run, and a claim that holds in one host only (empty where it does not).
 */
export interface HostWords {
  /** What runs the steps, as English names it in a sentence: "Zap", "workflow". */
  readonly flow: string;
  /** The same, plural: "Zaps", "workflows". */
  readonly flows: string;
  /** "the Zap", in Arabic (its English is "the ${flow}"). */
  readonly theFlowAr: string;
  /** "this Zap", in Arabic, whose word order differs between the hosts' words. */
  readonly thisFlowAr: string;
  /** "the Zap's timezone", in Arabic. */
  readonly flowTimezoneAr: string;
  /** Where a run's steps and results are read, in a help text: "the Zap history". */
  readonly history: string;
  /** Where the timezone is set, in a help text: "Zap settings → Timezone". */
  readonly timezoneSetting: string;
  /** What the host reads as a time without an offset, as examples in a help text. */
  readonly offsetlessExamples: string;
  /** How the host reads a date or time without an offset, a help text's sentence. */
  readonly offsetlessRead: string;
  /** Why a start time within the booking margin is refused, beyond being too soon ("" where there is nothing more). */
  readonly unreadableDateHelp: string;
  readonly unreadableDate: Bilingual;
  /** Where a failed run is replayed by hand: a whole sentence. */
  readonly replayRun: Bilingual;
  /** What replays a failed action step by itself: a whole sentence. */
  readonly autoReplay: Bilingual;
  /** After a rate limit: what happens next, the end of a sentence. */
  readonly retrySoon: Bilingual;
  /** Why the app refuses Zapier's template syntax in an input, the end of a sentence. */
  readonly curliesRefused: Bilingual;
  /** Turning the flow off and on, which subscribes its webhook anew (lower case; a sentence capitalises it). */
  readonly reactivate: Bilingual;
  /** Turning the flow on again, after a change of connection (lower case). */
  readonly activateAgain: Bilingual;
  /** Where a subscription the app could not delete goes away, in brackets. */
  readonly orphanDeleted: Bilingual;
  /** Freeing webhook subscriptions: a whole clause. */
  readonly turnOffUnused: Bilingual;
  /** How far apart polls may be, the slowest allowed given: the clause before "so with fewer minutes". */
  readonly pollInterval: (slowest: number) => Bilingual;
}

export interface Host {
  readonly name: 'zapier' | 'n8n';
  /**
   * Whether a trigger run that fails comes again: a hook's event delivered again, a poll's new items seen again.
   * Zapier answers the interface's delivery with its own 200 before the trigger runs and never replays a trigger (a
   * replay re-runs failed action steps only), and it marks a poll's items seen before it hydrates them; n8n's node
   * answers the interface itself, so a 500 makes the interface deliver again, and a poll that fails runs again.
   */
  readonly replaysFailedTriggers: boolean;
  readonly words: HostWords;
}

// Only a host an adapter defined is read from a bundle: anything else there counts as no host named.
const DEFINED = new WeakSet<Host>();

/** A host as an adapter supplies it: frozen, and known to `hostOf`. */
export const defineHost = (host: Host): Host => {
  const defined = Object.freeze({ ...host, words: Object.freeze({ ...host.words }) });
  DEFINED.add(defined);
  return defined;
};

export const ZAPIER: Host = defineHost({
  name: 'zapier',
  replaysFailedTriggers: false,
  words: {
    flow: 'Zap',
    flows: 'Zaps',
    theFlowAr: 'الزاب',
    thisFlowAr: 'هذا الزاب',
    flowTimezoneAr: 'منطقة الزاب الزمنية',
    history: 'the Zap history',
    timezoneSetting: 'Zap settings → Timezone',
    offsetlessExamples: 'such as 2026-11-24 10:30 or "tomorrow 10:30am"',
    offsetlessRead: 'A date or time without an offset is read in the Zap’s timezone',
    // Zapier's stand-in for a date it cannot read is the current time, which the booking margin refuses.
    unreadableDateHelp:
      ', because Zapier turns a date it cannot read (such as 30 February) into the current time',
    unreadableDate: {
      en: ': Zapier turns a date it cannot read, such as 30 February, into the current time.',
      ar: ': يحوّل Zapier التاريخ الذي لا يفهمه، مثل 30 فبراير، إلى الوقت الحالي.',
    },
    replayRun: { en: 'Replay this run from the Zap history.', ar: 'أعد تشغيل هذه العملية من سجل الزاب.' },
    autoReplay: {
      en: 'Zapier replays it by itself when Autoreplay is on.',
      ar: 'يعيدها Zapier تلقائيًا عند تفعيل Autoreplay.',
    },
    retrySoon: { en: 'Zapier will retry shortly.', ar: 'سيعيد Zapier المحاولة قريبًا.' },
    curliesRefused: { en: 'which Zapier does not let an app send', ar: 'ولا يسمح Zapier للتطبيق بإرسال ذلك' },
    reactivate: { en: 'turn the Zap off and on', ar: 'أوقف الزاب وشغّله' },
    activateAgain: { en: 'turn the Zap on again', ar: 'شغّل الزاب من جديد' },
    orphanDeleted: { en: '(turning the Zap on again deletes it)', ar: '(يحذفه تشغيل الزاب من جديد)' },
    turnOffUnused: { en: 'Turn off Zaps you no longer use', ar: 'أوقف الزابات غير المستخدمة' },
    pollInterval: (slowest) => ({
      en: `Zapier checks for appointments every 1 to ${slowest} minutes depending on the plan`,
      ar: `يتحقق Zapier من المواعيد كل 1 إلى ${slowest} دقيقة حسب الخطة`,
    }),
  },
});

/**
 * The host of a call: the one an adapter puts in `bundle.meta.host`, Zapier otherwise (Zapier itself names none).
 * Anything there that no adapter defined counts as Zapier, whose rules lose nothing: a trigger fires rather than fails.
 */
export const hostOf = (bundle: object | undefined): Host => {
  const host = ((bundle as Partial<Bundle> | undefined)?.meta as { host?: unknown } | undefined)?.host;
  return typeof host === 'object' && host !== null && DEFINED.has(host as Host) ? (host as Host) : ZAPIER;
};

/** A sentence's first letter in capitals: a host's words are written as they read inside a sentence. */
export const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A help text that speaks of the host's things, written once as a function of the host's words. */
export type HostHelp = (words: HostWords) => string;

/** Where a field keeps its help as a function of the host's words; a symbol, so no definition or snapshot shows it. */
export const HOST_HELP = Symbol('help in the host’s words');

/**
 * A field's help that speaks of the host: `helpText` in Zapier's words, for the Zapier definition, and the function
 * beside it, for an adapter that renders it in its own words when it builds its fields (`helpIn`).
 */
export const hostHelp = (help: HostHelp): { helpText: string; [HOST_HELP]: HostHelp } => ({
  helpText: help(ZAPIER.words),
  [HOST_HELP]: help,
});

/** A field's help in a host's words. */
export const helpIn = (
  host: Host,
  field: { helpText?: string; [HOST_HELP]?: HostHelp },
): string | undefined => field[HOST_HELP]?.(host.words) ?? field.helpText;
