// What the packed CLI gives the yaml package for `process` (scripts/pack-options.mjs). Its parser
// reads `process.env.LOG_TOKENS` for every token it lexes, and its composer `process.env.LOG_STREAM`
// for every document: both are the package's own debugging switches, and each read of process.env
// is a call into Node's environment. On the bench's 1,000-case dataset (415 KB) that was about a
// tenth of the time the package took (bench/README.md). Here the switches are always off; warnings
// still go to Node's process.emitWarning.
export const env = Object.freeze({});

export function emitWarning(...args) {
  return process.emitWarning(...args);
}
