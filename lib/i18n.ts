import type { Bundle } from 'zapier-platform-core';

export type Lang = 'en' | 'ar';

export const languageOf = (bundle: Pick<Bundle, 'authData'>): Lang =>
  bundle.authData?.language === 'ar' ? 'ar' : 'en';

/** A message of the app's own, in both languages. */
export type Bilingual = Record<Lang, string>;

export const say = (lang: Lang, text: Bilingual): string => text[lang];

/** An error whose message is the app's own, with its Arabic beside it (`message` stays English). */
export class BilingualError extends Error {
  constructor(readonly text: Bilingual) {
    super(text.en);
  }
}
