// The README and docs/audit.md repeat the figures the panel and `check` state; they must be AUDIT_HOLDOUT's, which
// the bench scripts check against the real sessions, not a copy that drifts when the pool or the rules change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_HOLDOUT as h } from './audit-trust';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
const pct = (right: number, n: number) => `${Math.round((right / n) * 100)}%`;

describe('the documents state the audit figures AUDIT_HOLDOUT holds', () => {
  it('README', () => {
    const readme = read('README.md');
    expect(readme).toContain(`On the ${h.sessions} sessions of ${h.projects} projects no rule was written looking at`);
    expect(readme).toContain(`**${pct(h.neededRight, h.neededFlags)} precise** on "needed later" (${h.neededRight} of ${h.neededFlags};`);
    expect(readme.replace(/\s+/g, ' ')).toContain(
      `${pct(h.refetchedRight, h.refetchedFlags)} of what it says was fetched again (${h.refetchedRight} of ${h.refetchedFlags}), ${pct(h.referencedRight, h.referencedFlags)} of what it says was used without a fetch (${h.referencedRight} of ${h.referencedFlags})`,
    );
    expect(readme).toContain(`${h.inventedRight} of its ${h.inventedFlags} invented flags were right`);
    const w = h.withInstructions;
    expect(readme.replace(/\s+/g, ' ')).toContain(`it is ${pct(w.neededRight, w.neededFlags)} precise (${w.neededRight} of ${w.neededFlags})`);
    expect(readme).toContain(`judged flag by flag on ${h.instructionSessions} sessions no instruction rule was written looking at, was right on ${h.instructionRight} of its ${h.instructionFlags} flags`);
  });

  it('docs/audit.md', () => {
    const doc = read('docs/audit.md');
    expect(doc).toContain(`| score | either reading ("needed") | **${pct(h.neededRight, h.neededFlags)}** (${h.neededRight}/${h.neededFlags}) |`);
    expect(doc).toContain(`| score | invented | ${pct(h.inventedRight, h.inventedFlags)} (${h.inventedRight}/${h.inventedFlags}) |`);
    const w = h.withInstructions;
    expect(doc).toContain(`| score, each project's CLAUDE.md read | either reading ("needed") | **${pct(w.neededRight, w.neededFlags)}** (${w.neededRight}/${w.neededFlags}) |`);
    expect(doc).toContain(`| score, each project's CLAUDE.md read | invented | ${pct(w.inventedRight, w.inventedFlags)} (${w.inventedRight}/${w.inventedFlags}) |`);
    expect(doc.replace(/\s+/g, ' ')).toContain(`"fetched again" ${w.refetchedRight} of ${w.refetchedFlags}, "used without a fetch" ${w.referencedRight} of ${w.referencedFlags}`);
    expect(doc).toContain(`${h.instructionRight} of ${h.instructionFlags} right on ${h.instructionSessions} sessions`);
    expect(doc.replace(/\s+/g, ' ')).toContain(`needed in either reading: ${h.refetchedRight} of the ${h.refetchedFlags} it says were fetched again, ${h.referencedRight} of the ${h.referencedFlags} it says were used without a fetch`);
  });
});
