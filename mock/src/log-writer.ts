// The mock's log lines onto its standard output, bounded. node queues what a pipe cannot take yet, without limit:
// `--log debug` into a pipe nobody read grew the mock from 134 to 411 MB. Past `maxQueuedBytes` waiting in the
// stream, a line is dropped and counted, and once the stream drains the count is printed in its place, so a reader
// who comes back knows what it missed. A single line always goes when nothing is queued.

/** What the log needs of a writable stream (process.stdout). */
interface LogSink {
  write(chunk: string): boolean;
  /** Bytes queued in the stream, not yet taken by the other end. */
  readonly writableLength: number;
  once(event: 'drain', listener: () => void): unknown;
}

/** 1 MiB: thousands of lines a reader may still catch up on, and nothing a pipe left unread can grow past. */
export const MAX_QUEUED_LOG_BYTES = 1024 * 1024;

interface BoundedLog {
  /** Writes `text` and a newline, or drops it when the stream holds `maxQueuedBytes` already. */
  line(text: string): void;
}

export function boundedLog(sink: LogSink, maxQueuedBytes = MAX_QUEUED_LOG_BYTES): BoundedLog {
  let dropped = 0;
  let waiting = false;
  const drained = () => {
    waiting = false;
    if (dropped === 0) return;
    const n = dropped;
    dropped = 0;
    sink.write(`mock: ${n} log line${n === 1 ? '' : 's'} dropped (stdout was not reading)\n`);
  };
  return {
    line(text) {
      const chunk = `${text}\n`;
      const queued = sink.writableLength;
      if (queued > 0 && queued + chunk.length > maxQueuedBytes) {
        dropped++;
        // The stream is past its high-water mark, so it emits 'drain' once the other end has taken it all.
        if (!waiting) {
          waiting = true;
          sink.once('drain', drained);
        }
        return;
      }
      sink.write(chunk);
    },
  };
}
