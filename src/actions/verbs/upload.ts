import { realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import type { FileChooser } from 'playwright-core';
import { ActionError } from '../check/errors.js';

/** At most this many files in one upload. */
export const MAX_UPLOAD_FILES = 20;

export interface UploadFile {
  /** The path as resolved inside the upload folder. */
  path: string;
  name: string;
  size: number;
}

/**
 * The files to upload, each resolved inside the allowed folder (symlinks followed, so a link cannot lead
 * out of it) and existing as a regular file. Any bad path refuses the whole upload before anything is sent.
 */
export async function allowedFiles(paths: string[], root: string): Promise<UploadFile[]> {
  if (paths.length === 0)
    throw new ActionError('NO_FILES', 'paths is empty.', 'Pass at least one file path.', 'paths');
  if (paths.length > MAX_UPLOAD_FILES)
    throw new ActionError(
      'TOO_MANY_FILES',
      `${paths.length} files were given; at most ${MAX_UPLOAD_FILES} are uploaded at once.`,
      'Upload fewer files.',
      'paths',
    );
  const rootReal = await realpath(root).catch(() => {
    throw new ActionError(
      'UPLOAD_DIR_MISSING',
      `The upload folder ${root} does not exist.`,
      'Start trueclick with --upload-dir set to an existing folder.',
      'paths',
      'internal',
    );
  });
  return Promise.all(
    paths.map(async (p, i) => {
      const field = `paths[${i}]`;
      const full = resolve(rootReal, p);
      const real = await realpath(full).catch(() => null);
      if (!real)
        throw new ActionError(
          'FILE_NOT_FOUND',
          `${field} ${JSON.stringify(p.slice(0, 200))} does not exist (looked for ${full}).`,
          `Pass a path of an existing file inside the upload folder ${rootReal}.`,
          field,
        );
      const rel = relative(rootReal, real);
      if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
        throw new ActionError(
          'UPLOAD_OUTSIDE_FOLDER',
          `${field} ${JSON.stringify(p.slice(0, 200))} is outside the upload folder ${rootReal}.`,
          `Only files inside ${rootReal} can be uploaded (trueclick's --upload-dir); copy the file there first.`,
          field,
        );
      const s = await stat(real);
      if (!s.isFile())
        throw new ActionError(
          'NOT_A_FILE',
          `${field} ${JSON.stringify(p.slice(0, 200))} is not a regular file.`,
          'Pass a file, not a folder.',
          field,
        );
      return { path: real, name: basename(real), size: s.size };
    }),
  );
}

/** Fills an open file chooser; Playwright fires the input's `input` and `change` events. */
export async function fillChooser(chooser: FileChooser, files: UploadFile[]): Promise<void> {
  if (!chooser.isMultiple() && files.length > 1)
    throw new ActionError(
      'SINGLE_FILE_INPUT',
      `The file chooser takes one file, and ${files.length} were given.`,
      'Pass one path.',
      'paths',
    );
  await chooser.setFiles(files.map((f) => f.path));
}
