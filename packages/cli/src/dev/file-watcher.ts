import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Editors write a file in bursts (truncate, write, rename): one read after the burst. */
export const DEBOUNCE_MS = 50;

/**
 * Calls `onChange` once after each burst of changes to `path`. The folder is watched, not the
 * file: editors that save by writing a new file and renaming it over the old one (vim, many
 * IDEs) replace the inode a file watch would follow, and the watch would go quiet.
 * Returns what stops watching.
 */
export function watchFile(path: string, onChange: () => void, onError: (error: Error) => void, debounceMs = DEBOUNCE_MS): () => void {
  const name = basename(path);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = watch(dirname(path), (_event, filename) => {
    // Some platforms give no name: any change in the folder may be the file's.
    if (filename !== null && filename.toString() !== name) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on('error', onError);
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
