// Counts tokens off the main thread: one of the token pool's workers. The rank tables are loaded here, on
// the first request for an encoding, never by the page.
import * as Comlink from 'comlink';
import type { CountReply, CountRequest } from '../../src/tokens/pool';
import { createCountHandler } from '../../src/tokens/worker-handler';
import { installFetchedRankTables } from './fetched-rank-tables';

installFetchedRankTables();

const handle = createCountHandler();

const api = {
  count(request: CountRequest): Promise<CountReply> {
    return handle(request);
  },
};

export type TokensWorkerApi = typeof api;
Comlink.expose(api);
