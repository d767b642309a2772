// A whole number as people read it in labels and messages: 167,000, not 167000. One formatter for every caller:
// `toLocaleString` builds a new one per call, which costs more than the rest of a row when a view renders dozens.
// Whole numbers (nearly every caller's) are grouped here without it: building Intl's formatter loads ICU's number
// data, ~9 ms of CPU that a one-shot CLI run paid at start-up. Other values (fractions, -0, NaN, ±Infinity, numbers
// past 2^53) go to the formatter, built when one first comes.
let formatter: Intl.NumberFormat | null = null;

export const thousands = (n: number): string => {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return (formatter ??= new Intl.NumberFormat('en-US')).format(n);
  const digits = String(n < 0 ? -n : n);
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
};
