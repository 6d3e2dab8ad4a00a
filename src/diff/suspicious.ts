/**
 * Patterns of model-directed injection in tool text. A description is written for the model, so
 * text that addresses the model behind the user's back, reaches for secrets, or tells it to send
 * data somewhere is a red flag. Each pattern needs an intent, not a mere mention: vendor links,
 * `https://example.com` and `.env` as a search example are ordinary documentation (measured on the
 * corpus of published tool lists in test/corpus/).
 */
const INJECTION: [RegExp, string][] = [
  [/<\s*(important|system|instructions?|secret|hidden)\b[^>]*>/i, 'a hidden-instruction tag'],
  [/\b(ignore|disregard|forget)\s+(all\s+)?(the\s+)?(previous|prior|above|earlier)\s+(instructions|rules|prompts?)/i, 'an instruction to ignore previous instructions'],
  [/\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show)\b[^.]{0,40}\b(user|human)/i, 'an instruction to hide things from the user'],
  [/(~\/\.ssh\b|\bid_rsa\b|\.aws\/credentials|\/etc\/(passwd|shadow)\b|\/proc\/[\w$]+\/environ)/i, 'a reference to credential files'],
  [/\b(read|cat|open|include|pass|send|attach|copy|upload)\b[^.\n]{0,40}(\.env\b|private[_ -]?key|api[_ -]?keys?|credentials|access[_ -]?tokens?|passwords?)/i, 'an instruction to read or pass on secrets'],
  [/\b(send|post|upload|forward|transmit|exfiltrate)\b[^.\n]{0,60}\bto\s+(https?:\/\/|\d{1,3}(\.\d{1,3}){3})/i, 'an instruction to send data to an address'],
  [/\b(before|instead of)\s+(using|calling)\s+(this|any other)\s+tool\b/i, 'an instruction that steers tool choice'],
];

// Zero-width, bidirectional controls and isolates, and the Unicode tag block.
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/u;

const clip = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** Reasons this text is suspicious, given the text it replaces (empty for new text): the reason, then the matched text, clipped. */
export function suspiciousReasons(text: string, previous: string): string[] {
  const reasons: string[] = [];
  for (const [pattern, label] of INJECTION) {
    const found = pattern.exec(text);
    if (found && !pattern.test(previous)) reasons.push(`${label} (${clip(found[0])})`);
  }
  if (INVISIBLE.test(text) && !INVISIBLE.test(previous)) reasons.push('invisible or bidirectional Unicode characters');
  return reasons;
}
