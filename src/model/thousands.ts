// A whole number as people read it in labels and messages: 167,000, not 167000.
export const thousands = (n: number): string => n.toLocaleString('en-US');
