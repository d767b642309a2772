// A whole number as people read it in labels and messages: 167,000, not 167000. One formatter for every caller:
// `toLocaleString` builds a new one per call, which costs more than the rest of a row when a view renders dozens.
const NUMBER = new Intl.NumberFormat('en-US');

export const thousands = (n: number): string => NUMBER.format(n);
