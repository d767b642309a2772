// The user's own per-model prices, over the dated table (src/cost/prices.ts). Kept in this browser: prices are
// not secrets, and a team's negotiated rates should not have to be typed again every visit.
import type { StateCreator } from 'zustand';
import { parsePriceOverrides, type ModelPrice, type PriceOverrides } from '../../src/cost/prices';

export interface PricesSlice {
  prices: PriceOverrides;
  /** Sets (or, with null, removes) the price of a model, by its lower-cased name. */
  setPrice(model: string, price: ModelPrice | null): void;
}

export const PRICES_KEY = 'compaction-inspector.prices';

function storage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readPrices(raw: string | null): PriceOverrides {
  if (raw === null) return {};
  try {
    return parsePriceOverrides(JSON.parse(raw)).prices;
  } catch {
    return {};
  }
}

export const createPricesSlice: StateCreator<PricesSlice, [], [], PricesSlice> = (set, get) => ({
  prices: readPrices(storage()?.getItem(PRICES_KEY) ?? null),
  setPrice(model, price) {
    const next: Record<string, ModelPrice> = { ...get().prices };
    const key = model.toLowerCase();
    if (price) next[key] = price;
    else delete next[key];
    set({ prices: next });
    storage()?.setItem(PRICES_KEY, JSON.stringify(next));
  },
});
