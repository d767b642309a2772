// Numbers as the app shows them (1,234): the engine's one formatter.
export { thousands as count } from '../../src/model/thousands';
