/**
 * Patterns of model-directed injection in tool text. A description is written for the model, so
 * text that addresses the model behind the user's back, or reaches for secrets, is a red flag.
 */
const INJECTION: [RegExp, string][] = [
  [/<\s*(important|system|instructions?|secret|hidden)\b[^>]*>/i, 'a hidden-instruction tag'],
  [/\b(ignore|disregard|forget)\s+(all\s+)?(the\s+)?(previous|prior|above|earlier)\s+(instructions|rules|prompts?)/i, 'an instruction to ignore previous instructions'],
  [/\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show)\b[^.]{0,40}\b(user|human)/i, 'an instruction to hide things from the user'],
  [/(~\/\.ssh|id_rsa|\.env\b|\.aws\/credentials|\.npmrc|\/etc\/passwd|private[_ -]?key)/i, 'a reference to secrets or credential files'],
  [/\b(before|instead of)\s+(using|calling)\s+(this|any other)\s+tool\b/i, 'an instruction that steers tool choice'],
];

// Zero-width, bidirectional controls and isolates, and the Unicode tag block.
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/u;

const URL = /\bhttps?:\/\/[^\s)"'<>]+/gi;

/** Reasons this text is suspicious, given the text it replaces (empty for new text). */
export function suspiciousReasons(text: string, previous: string): string[] {
  const reasons: string[] = [];
  for (const [pattern, label] of INJECTION) if (pattern.test(text) && !pattern.test(previous)) reasons.push(label);
  if (INVISIBLE.test(text) && !INVISIBLE.test(previous)) reasons.push('invisible or bidirectional Unicode characters');
  const known = new Set(previous.match(URL) ?? []);
  const fresh = (text.match(URL) ?? []).filter((u) => !known.has(u));
  if (fresh.length) reasons.push(`new URL ${fresh[0]}`);
  return reasons;
}
