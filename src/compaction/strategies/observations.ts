// What counts as an observation: a tool result, or what an environment or tool role said.
import type { Item } from '../../model/types';

export const isObservation = (it: Item) => it.kind === 'tool_result' || ((it.role === 'environment' || it.role === 'tool') && it.kind === 'message');

/** Already masked or omitted: nothing left to take out. */
export const isCleared = (it: Item) => it.omission !== undefined;
