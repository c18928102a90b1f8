import type { Bundle } from 'zapier-platform-core';

export type Lang = 'en' | 'ar';

export const languageOf = (bundle: Pick<Bundle, 'authData'>): Lang =>
  bundle.authData?.language === 'ar' ? 'ar' : 'en';

/** A message of the app's own, in both languages. */
export type Bilingual = Record<Lang, string>;

/** Between the Arabic and the English of one message. */
export const BETWEEN = ' — ';

/**
 * The one place where a message of the app's own becomes text. Zapier's publishing rules want every message a
 * Zap builder sees in English: a connection in English gets the English, one in Arabic gets the Arabic first and
 * its English after it.
 */
export const say = (lang: Lang, text: Bilingual): string =>
  lang === 'ar' && text.ar !== text.en ? `${text.ar}${BETWEEN}${text.en}` : text.en;

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
 * for it (lib/safety.ts).
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
