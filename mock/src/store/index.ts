// The store's public surface, for the mock server and the suites.
export * from '../../../fixtures/model/records.ts';
export { FixtureError, formatIssue, type FixtureIssue, type FixtureProblemKind } from '../../../fixtures/model/fixture-error.ts';
export { loadFixtures, parseFixtureTexts, parseStateFile, parseStateText, recordProblems, nodeReadFs, type ReadFs, type RecordDef } from './load-fixtures.ts';
export { checkIntegrity, minimumSequences } from './integrity.ts';
export {
  createStore, diffSnapshots, fixturesToData, Store, StoreError,
  type PostInput, type RecordKeys, type RecordTableName, type RecordTables, type Singletons, type SnapshotDifference,
  type StoreChange, type StoreErrorCode, type StoreOptions, type Stored, type TermInput,
} from './store.ts';
export { byField, listOf, paginate, thenBy, Table, deepFreeze, type Comparator, type DeepReadonly, type ListOptions, type Page, type ReadTable } from './table.ts';
export {
  loadState, nodePersistFs, openStateFile, openStore, serializeState, StateFileError, writeFileAtomic,
  type FileHandleLike, type OpenStoreOptions, type Persister, type PersisterStats, type PersistFs, type StateFileOptions,
} from './persist.ts';
export { sanitizeTitle, uniqueSlug, truncateSlug, MAX_SLUG_LENGTH } from '../../../contracts/wordpress/slug.ts';
export { addSeconds, isDateTimeString, isKnownTimeZone, offsetMinutes, utcToZoned, zonedToUtc, dateToUtcString } from '../../../contracts/wordpress/time.ts';
export { parseJsonText, type JsonParseResult, type JsonSyntaxProblem } from './json-text.ts';
