/*
 * zapier-platform-core refuses to send a request whose URL, headers, query or body holds `{{bundle.…}}` or
 * `{{process.…}}` (its `throwForCurlies`, written for apps that still template their requests), with an error that
 * names no field. Text a Zap builder typed can hold exactly that, so the app finds it first and names the field.
 */

const isSpace = (c: string) => /\s/.test(c);

/**
 * Whether core would refuse `text`: the same test as its `/{{\s*(bundle|process)\.[^}]*}}/`, read once from left to
 * right (each `{{` is looked at once, and the next `}` is searched for only past the last one found), so a long
 * text of many `{{bundle.` costs no more than its length.
 */
export const holdsCoreTemplate = (text: string): boolean => {
  let close = -1;
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', open + 1)) {
    let at = open + 2;
    while (at < text.length && isSpace(text[at]!)) at += 1;
    const prefix = text.startsWith('bundle.', at) ? 7 : text.startsWith('process.', at) ? 8 : 0;
    if (prefix === 0) continue;
    at += prefix;
    if (close < at) close = text.indexOf('}', at);
    if (close === -1) return false;
    if (text[close + 1] === '}') return true;
  }
  return false;
};
