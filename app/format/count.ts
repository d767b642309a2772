// Numbers as the app shows them (1,234). One formatter for all: `toLocaleString` builds a new one per call,
// which costs more than the rest of a row when a step renders dozens of rows.
const NUMBER = new Intl.NumberFormat('en-US');

export const count = (n: number): string => NUMBER.format(n);
