/**
 * The JSON a text block carries: the whole text, or what follows a head line ("Found 366 posts;
 * showing the first 5.\n\n[...]"), which is how servers that follow the write-ups put a summary
 * for the model before the data. Undefined when the text holds no JSON object or array.
 */
export function jsonOfText(text: string): unknown {
  const whole = parse(text);
  if (whole !== undefined || !text.includes('\n')) return whole;
  const start = text.search(/\n\s*[[{]/);
  return start === -1 ? undefined : parse(text.slice(start));
}

function parse(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // not JSON after all: prose that starts with a bracket
  }
}
