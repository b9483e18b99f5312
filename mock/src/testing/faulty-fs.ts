// The state file's file operations with a journal that fails when told (a full disk, an I/O error): node's own,
// except that a journal write that fails writes half its bytes first, as a write cut short by ENOSPC does. For the
// tests of refused writes (state-file-refusals.test.ts) and the kill -9 test's faulty child (faulty-mock-child.ts).
import { nodePersistFs, type FileHandleLike, type PersistFs } from '../store/persist.ts';

/** `failing()` is asked at each journal write: an error code to fail it with, or undefined to let it through. */
export function faultyJournalFs(failing: () => string | undefined): PersistFs {
  return {
    ...nodePersistFs,
    open: async (path, flags, mode) => {
      const fh = await nodePersistFs.open(path, flags, mode);
      if (!path.endsWith('.journal')) return fh;
      const faulty: FileHandleLike = {
        write: async (data) => {
          const code = failing();
          if (code === undefined) return fh.write(data);
          await fh.write(data.subarray(0, data.byteLength >> 1));
          throw Object.assign(new Error(`${code}: injected`), { code });
        },
        sync: () => fh.sync(),
        truncate: (n) => fh.truncate(n),
        close: () => fh.close(),
      };
      return faulty;
    },
  };
}
