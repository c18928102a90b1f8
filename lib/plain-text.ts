/*
 * Text an interface sent (a server's message, a name in a dropdown), as the app may show it: one line, nothing that
 * could reorder or break the words around it, bounded in length.
 */

/**
 * Unicode's bidirectional controls: the Arabic letter mark, the left-to-right and right-to-left marks, the
 * embeddings and overrides (U+202A–U+202E) and the isolates (U+2066–U+2069). Quoted from a server, one left open
 * (an override, an isolate never closed) reorders every word after it, the app's own included.
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The text without bidirectional controls, control characters or line separators, on one line with its runs of
 * spaces folded.
 */
export const plainText = (text: string): string =>
  text
    .replace(BIDI_CONTROLS, '')
    // Control characters and line separators (\p{Cc}, \u2028, \u2029) would break the one line.
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** At most `max` characters, the last of them an ellipsis when the text was longer. */
export const shortened = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
