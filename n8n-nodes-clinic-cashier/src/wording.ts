/**
 * The app's help speaks of Zaps and Zap settings; in n8n the same thing is a workflow. Each row is a phrase as the
 * app writes it (its help texts and descriptions, authentication.ts's included) and how it reads in n8n. Whole
 * phrases rather than a word swap, so a sentence whose claim differs in n8n is rewritten, not just renamed; a test
 * (test/n8n/wording.test.ts) finds any Zap left in the nodes' descriptions and any row no help uses.
 */
export const N8N_WORDING: ReadonlyArray<readonly [zapier: string, n8n: string]> = [
  // n8n reads a time without an offset in the workflow's timezone (src/times.ts); it does not read "tomorrow".
  [
    'First set the Zap’s timezone to Asia/Riyadh (Zap settings → Timezone): a time without an offset (such as 2026-11-24 10:30 or "tomorrow 10:30am") is read in it',
    'First set the workflow’s timezone to Asia/Riyadh (Workflow settings → Timezone, or n8n’s GENERIC_TIMEZONE): a time without an offset (such as 2026-11-24 10:30) is read in it',
  ],
  // A plain date passes unchanged in n8n (src/times.ts): the clinic reads it as the day it names.
  [
    'A date or time without an offset is read in the Zap’s timezone',
    'A time without an offset is read in the workflow’s timezone (a date is sent as it is)',
  ],
  // Zapier's stand-in for a date it cannot read; n8n hands such a date over as it is, and the app refuses it.
  [', because Zapier turns a date it cannot read (such as 30 February) into the current time', ''],
  ['in the Zap history', 'in the execution log'],
  ['from this Zap', 'from this workflow'],
  ['your Zaps', 'your workflows'],
  ['the Zap still runs', 'the workflow still runs'],
  ['list Zap never', 'list workflow never'],
  ['stops the Zap with an error', 'stops the workflow with an error'],
];

/**
 * The app's error messages (both halves: "English — Arabic") that speak of Zaps, and how they read in n8n. Each
 * phrase is one the app writes; a test (test/n8n/error-wording.test.ts) fails when one no longer occurs in the app's
 * messages, and when a message a node can raise still speaks of Zaps.
 */
export const N8N_MESSAGE_WORDING: ReadonlyArray<readonly [zapier: string, n8n: string]> = [
  // n8n reads a time without an offset in the workflow's timezone (src/times.ts).
  [
    "A time typed without an offset is read in the Zap's timezone",
    "A time typed without an offset is read in the workflow's timezone",
  ],
  [
    'الوقت المكتوب بلا فرق توقيت يُقرأ بمنطقة الزاب الزمنية',
    'الوقت المكتوب بلا فرق توقيت يُقرأ بالمنطقة الزمنية لسير العمل',
  ],
  // n8n hands a date it cannot read over as it is, and the app refuses it: the margin is only a margin.
  [
    'too soon to book: Zapier turns a date it cannot read, such as 30 February, into the current time.',
    'too soon to book.',
  ],
  [
    'وهذا أقرب من أن يُحجز: يحوّل Zapier التاريخ الذي لا يفهمه، مثل 30 فبراير، إلى الوقت الحالي.',
    'وهذا أقرب من أن يُحجز.',
  ],
  // A replay in n8n is running the execution again.
  ['Replay this run from the Zap history.', 'Run this execution again from the workflow’s Executions list.'],
  ['أعد تشغيل هذه العملية من سجل الزاب.', 'أعد تشغيل هذا التنفيذ من قائمة التنفيذات في سير العمل.'],
  [
    'Zapier replays it by itself when Autoreplay is on.',
    'The node’s Retry On Fail setting runs it again by itself.',
  ],
  ['يعيدها Zapier تلقائيًا عند تفعيل Autoreplay.', 'يعيدها إعداد Retry On Fail في العقدة تلقائيًا.'],
  // The app refuses Zapier's own template syntax in n8n too.
  ['which Zapier does not let an app send', 'which the app does not send'],
  ['ولا يسمح Zapier للتطبيق بإرسال ذلك', 'ولا يرسل التطبيق ذلك'],
  // n8n does not retry by itself: the node's Retry On Fail setting does.
  [
    '; Zapier will retry shortly.',
    '; try again shortly (the node’s Retry On Fail setting retries by itself).',
  ],
  [
    '؛ سيعيد Zapier المحاولة قريبًا.',
    '؛ حاول مجددًا بعد قليل (إعداد Retry On Fail في العقدة يعيد المحاولة تلقائيًا).',
  ],
  // Minutes Before Start's floor: in n8n Poll Times sets how far apart two polls are, the app allowing up to it.
  ['Zapier checks for appointments every 1 to ', 'The app lets polls be up to '],
  [
    ' minutes depending on the plan, so with fewer minutes',
    ' minutes apart (Poll Times), so with fewer minutes',
  ],
  ['يتحقق Zapier من المواعيد كل 1 إلى ', 'يسمح التطبيق بأن تتباعد الفحوص حتى '],
  [' دقيقة حسب الخطة، فبدقائق أقل', ' دقيقة (Poll Times)، فبدقائق أقل'],
  // A Zap turned off and on is a workflow deactivated and activated (its webhook subscribed anew).
  ['Turn the Zap off and on', 'Deactivate and activate the workflow'],
  ['turn the Zap off and on', 'deactivate and activate the workflow'],
  ['turn the Zap on again', 'activate the workflow again'],
  [
    '(turning the Zap on again deletes it)',
    '(the account owner deletes it in the back office’s developers area)',
  ],
  ['Turn off Zaps you no longer use', 'Deactivate workflows you no longer use'],
  ["the Zap's webhook address", "the workflow's webhook address"],
  ['this Zap holds', 'this workflow holds'],
  ['this Zap’s signing secret', 'this workflow’s signing secret'],
  ['أوقف الزاب وشغّله', 'ألغِ تفعيل سير العمل وفعّله'],
  ['ثم شغّل الزاب من جديد', 'ثم فعّل سير العمل من جديد'],
  ['(يحذفه تشغيل الزاب من جديد)', '(يحذفه مالك الحساب من قسم المطورين في المكتب الخلفي)'],
  ['أوقف الزابات غير المستخدمة', 'ألغِ تفعيل مسارات العمل غير المستخدمة'],
  ['عنوان الويب هوك الخاص بالزاب', 'عنوان الويب هوك الخاص بسير العمل'],
  ['المحفوظ في هذا الزاب', 'المحفوظ في سير العمل هذا'],
  ['الخاص بهذا الزاب', 'الخاص بسير العمل هذا'],
  ['لا يحمل هذا الزاب', 'لا يحمل سير العمل هذا'],
  ['ليعمل الزاب لكل عميل جديد', 'ليعمل سير العمل لكل عميل جديد'],
  ['فلن يعمل الزاب حتى تُصحَّح', 'فلن يعمل سير العمل حتى تُصحَّح'],
];

const reworded = (rows: typeof N8N_WORDING, text: string) =>
  rows.reduce((out, [zapier, n8n]) => out.split(zapier).join(n8n), text);

/** The app's words for help and descriptions as n8n says them. */
export const inN8nWords = (text: string): string => reworded(N8N_WORDING, text);

/**
 * An error the app raised, its message as n8n says it; the same error (its class, name, code and status kept).
 * Where a node's method lets an app error out (the action's execute, the triggers' webhook, activation and poll,
 * the dropdowns, the credential test), it goes through here or `inN8nErrors`.
 */
export const inN8nError = <E>(error: E): E => {
  if (error instanceof Error) {
    const message = reworded(N8N_MESSAGE_WORDING, error.message);
    if (message !== error.message) {
      if (error.stack) error.stack = error.stack.split(error.message).join(message);
      error.message = message;
    }
  }
  return error;
};

/** What `run` returns; what it throws, as n8n says it (inN8nError). */
export const inN8nErrors = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (error) {
    throw inN8nError(error);
  }
};
