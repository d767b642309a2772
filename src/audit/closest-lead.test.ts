import { describe, expect, it } from 'vitest';
import { closestLead } from './closest-lead';

describe('closestLead', () => {
  it('gives how alike the closest message is, in whole percent, or that there was none', () => {
    expect(closestLead({ closest: 'fix the pool leak', similarity: 0.126 })).toBe('closest user message (13% alike)');
    expect(closestLead({ closest: null, similarity: 0 })).toBe('no user message to compare');
  });
});
