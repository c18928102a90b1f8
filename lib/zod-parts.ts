// The parts of zod the app builds its schemas from, by name: the bundle (scripts/bundle.js) keeps these and what
// they need, and leaves out the rest of zod (its locales among it). Loaded on first use only, by `zod()` in
// lib/zod.ts; nothing else imports zod's values. A schema needing another part adds it here.
export { array, boolean, enum, NEVER, number, object, preprocess, string, union } from 'zod';
