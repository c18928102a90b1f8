import type { Bundle } from 'zapier-platform-core';

export type Lang = 'en' | 'ar';

export const languageOf = (bundle: Pick<Bundle, 'authData'>): Lang =>
  bundle.authData?.language === 'ar' ? 'ar' : 'en';

/** A message of the app's own, in both languages. */
export type Bilingual = Record<Lang, string>;

export const say = (lang: Lang, text: Bilingual): string => text[lang];

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
