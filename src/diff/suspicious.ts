/**
 * Patterns of model-directed injection in tool text. A description is written for the model, so
 * text that addresses the model behind the user's back, reaches for secrets, or tells it to send
 * data somewhere is a red flag. Each pattern needs an intent, not a mere mention: vendor links,
 * `https://example.com` and `.env` as a search example are ordinary documentation (measured on the
 * corpus of published tool lists in test/corpus/).
 */
/** Determiners between a verb and what it takes: "the", "your", "the contents of the". */
const DET = String.raw`(?:(?:the|your|the\s+user'?s|user'?s|my|all|any|its|their|every|contents\s+of|content\s+of)\s+){0,3}`;
const SECRET = String.raw`(?:\.env\b|private[_ -]?keys?|api[_ -]?keys?|credentials|access[_ -]?tokens?|passwords?|secrets?)`;
const CREDENTIAL_FILE = String.raw`[^\s"'\`]{0,40}?(?:\.ssh\b|id_rsa\b|\.aws\/credentials|\/etc\/(?:passwd|shadow)\b|\/proc\/[\w$]+\/environ)`;
const TAKE = String.raw`(?:include|pass|send|attach|add|append|put|paste|copy|upload|post|forward|embed)`;
const READ = String.raw`(?:read|cat|open|load|get|fetch)`;

const INJECTION: [RegExp, string][] = [
  [/<\s*(important|system|instructions?|secret|hidden)\b[^>]*>/i, 'a hidden-instruction tag'],
  [
    /\b(ignore|disregard|forget)\s+(all\s+)?(the\s+)?(previous|prior|above|earlier)\s+(instructions|rules|prompts?)/i,
    'an instruction to ignore previous instructions',
  ],
  [
    /\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show)\b[^.]{0,40}\b(user|human)/i,
    'an instruction to hide things from the user',
  ],
  // A credential file read or passed on; a mention alone ("paths such as ~/.ssh are rejected") is not.
  [new RegExp(String.raw`\b(?:${READ}|${TAKE})\s+${DET}${CREDENTIAL_FILE}`, 'i'), 'a reference to credential files'],
  // A secret handed to the tool ("include your API key in the query"), or read and then passed on.
  [
    new RegExp(String.raw`\b${TAKE}\s+${DET}${SECRET}[^.\n]{0,30}?\s(?:in|into|as|to|with|inside)\b`, 'i'),
    'an instruction to read or pass on secrets',
  ],
  [
    new RegExp(String.raw`\b${READ}\s+${DET}${SECRET}[^.\n]{0,60}?\b(?:and|then)\s+${TAKE}\b`, 'i'),
    'an instruction to read or pass on secrets',
  ],
  [
    /\b(send|post|upload|forward|transmit|exfiltrate)\b[^.\n]{0,60}\bto\s+(https?:\/\/|\d{1,3}(\.\d{1,3}){3})/i,
    'an instruction to send data to an address',
  ],
  // Steering away from every other tool ("instead of any other tool", "do not use other tools"). A
  // prerequisite ("call this first", "confirm the plan before using this tool") is ordinary workflow.
  [
    /\b(instead\s+of\s+(using\s+|calling\s+)?(any|all)\s+other\s+tools?|(never|do\s+not|don't)\s+(use|call)\s+(any\s+)?other\s+tools?|only\s+(ever\s+)?use\s+this\s+tool)\b/i,
    'an instruction that steers tool choice',
  ],
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
