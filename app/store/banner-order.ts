// One order for every banner under the top bar (load reports and notices), so the stack shows the newest first.
let last = 0;

export function nextBannerSeq(): number {
  return ++last;
}
