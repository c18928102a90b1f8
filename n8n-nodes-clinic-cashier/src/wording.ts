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

/** The app's words for help and descriptions as n8n says them. */
export const inN8nWords = (text: string): string =>
  N8N_WORDING.reduce((out, [zapier, n8n]) => out.split(zapier).join(n8n), text);
