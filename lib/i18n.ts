import type { Bundle } from 'zapier-platform-core';

export type Lang = 'en' | 'ar';

export const languageOf = (bundle: Pick<Bundle, 'authData'>): Lang =>
  bundle.authData?.language === 'ar' ? 'ar' : 'en';

/** A message of the app's own, in both languages. */
export type Bilingual = Record<Lang, string>;

/** Between the English and the Arabic of one message. */
export const BETWEEN = ' — ';

/**
 * The one place where a message of the app's own becomes text. Zapier's publishing rules want every message a
 * Zap builder sees in English, first (CONTRACT §8): a connection in English gets the English, one in Arabic gets the
 * English and then its Arabic.
 */
export const say = (lang: Lang, text: Bilingual): string =>
  lang === 'ar' && text.ar !== text.en ? `${text.en}${BETWEEN}${text.ar}` : text.en;

/**
 * Text that reads left to right inside Arabic (a phone number, a time with its offset), between Unicode's
 * left-to-right isolate and its closing mark: without them `+966501234567` shows as `966501234567+`.
 */
export const ltr = (text: string): string => `\u2066${text}\u2069`;

/** Sentences of one message, each language joined with its own separator (a space unless given). */
export const joined = (
  parts: readonly Bilingual[],
  between: Bilingual = { en: ' ', ar: ' ' },
): Bilingual => ({
  en: parts.map((p) => p.en).join(between.en),
  ar: parts.map((p) => p.ar).join(between.ar),
});

/**
 * An error whose message the app wrote itself (no bundle, no body, no token): core's error enrichment stays off
 * for it (lib/seal.ts).
 */
export class AppMessageError extends Error {
  readonly doNotContextify = true;
}

/** An error whose message is the app's own, with its Arabic beside it (`message` stays English). */
export class BilingualError extends AppMessageError {
  constructor(readonly text: Bilingual) {
    super(text.en);
  }
}
