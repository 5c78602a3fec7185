/**
 * What was dropped on the page or picked in the file chooser, as files with their paths: a dropped
 * folder (a Claude Code session's, say) is walked, its files named by their path inside it.
 *
 * The entries of a drop must be taken while its event runs (the browser empties the DataTransfer
 * after), so `droppedEntries` is called in the handler and `filesOf` reads them afterwards.
 */

/** A file with its path inside what was opened (its name alone when it was not in a folder). */
export interface PickedFile {
  path: string;
  file: File;
}

/** The most files a dropped folder gives: a project's whole folder is not a session. */
export const MAX_DROPPED_FILES = 2000;

/** What a drop carries, taken during its event: directory entries where the browser has them, else files. */
export function droppedEntries(transfer: DataTransfer | null): Array<FileSystemEntry | File> {
  if (!transfer) return [];
  const out: Array<FileSystemEntry | File> = [];
  const items = transfer.items ? Array.from(transfer.items) : [];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    const file = entry ? null : item.getAsFile();
    if (entry) out.push(entry);
    else if (file) out.push(file);
  }
  if (!out.length) out.push(...Array.from(transfer.files));
  return out;
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a directory (readEntries gives them a batch at a time). */
async function entriesOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (!batch.length) return all;
    all.push(...batch);
  }
}

/** The files of what was dropped or picked, folders walked, with their paths. */
export async function filesOf(entries: ReadonlyArray<FileSystemEntry | File>): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const walk = async (entry: FileSystemEntry, path: string): Promise<void> => {
    if (out.length >= MAX_DROPPED_FILES) return;
    if (isDirectory(entry)) {
      for (const child of await entriesOf(entry)) await walk(child, `${path}/${child.name}`);
    } else if (entry.isFile) {
      out.push({ path, file: await fileOf(entry as FileSystemFileEntry) });
    }
  };
  for (const entry of entries) {
    if (entry instanceof File) out.push({ path: entry.webkitRelativePath || entry.name, file: entry });
    else await walk(entry, entry.name);
  }
  return out;
}
