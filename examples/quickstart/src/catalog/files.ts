import { clamp, FIXED_ISO, fakeId, hash, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, str, tool } from './types';

const pathProp = str('Path relative to the drive root, e.g. "/reports/q1.pdf".');
const baseName = (path: string) => path.split('/').filter(Boolean).pop() ?? 'file';

export const filesTools: ExampleTool[] = [
  tool(
    'files_list_directory',
    'List the files and folders inside a directory of the user’s cloud drive.',
    {
      path: pathProp,
      recursive: bool('Include the contents of sub-folders.'),
      limit: int('Maximum entries.', 1, 1000),
    },
    ['path'],
    (input) => {
      const path = s(input, 'path', '/');
      const count = clamp(n(input, 'limit', 3), 1, 4);
      return {
        path,
        entries: Array.from({ length: count }, (_, i) => ({
          name: i === 0 ? 'archive' : `document-${i}.txt`,
          type: i === 0 ? 'folder' : 'file',
          size: i === 0 ? 0 : pick(path + i, 200, 90000),
        })),
      };
    },
  ),
  tool(
    'files_read_file',
    'Read a text file from the drive and return its contents.',
    { path: pathProp, encoding: enumOf(['utf-8', 'base64'], 'Encoding of the returned content.') },
    ['path'],
    (input) => {
      const path = s(input, 'path', '/notes.txt');
      return {
        path,
        encoding: s(input, 'encoding', 'utf-8'),
        content: `Contents of ${baseName(path)}`,
      };
    },
  ),
  tool(
    'files_write_file',
    'Create or overwrite a text file on the drive.',
    {
      path: pathProp,
      content: str('Text content to write.'),
      overwrite: bool('Replace the file if it already exists.'),
    },
    ['path', 'content'],
    (input) => ({
      path: s(input, 'path'),
      bytesWritten: s(input, 'content').length,
      fileId: fakeId('file', s(input, 'path')),
    }),
  ),
  tool(
    'files_delete',
    'Move a file or folder to the trash, or delete it permanently.',
    { path: pathProp, permanent: bool('Skip the trash and delete permanently.') },
    ['path'],
    (input) => ({ path: s(input, 'path'), trashed: input.permanent !== true, deleted: true }),
  ),
  tool(
    'files_move',
    'Move or rename a file or folder.',
    { from: str('Current path.'), to: str('New path.') },
    ['from', 'to'],
    (input) => ({ from: s(input, 'from'), to: s(input, 'to'), moved: true }),
  ),
  tool(
    'files_copy',
    'Copy a file to another folder, optionally under a new name.',
    { from: str('Source path.'), to: str('Destination path.') },
    ['from', 'to'],
    (input) => ({ to: s(input, 'to'), fileId: fakeId('file', s(input, 'to')) }),
  ),
  tool(
    'filesCreateFolder',
    'Create a folder, including any missing parent folders.',
    { path: pathProp },
    ['path'],
    (input) => ({
      path: s(input, 'path'),
      folderId: fakeId('fld', s(input, 'path')),
      created: true,
    }),
  ),
  tool(
    'filesSearch',
    'Search files by name and full-text content, optionally filtered by type.',
    {
      query: str('Words to search for.'),
      mimeTypes: arr(str('MIME type, e.g. "application/pdf".'), 'Only these file types.'),
      modifiedAfter: str('Only files modified after this ISO date.'),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        results: [1, 2, 3].map((i) => ({
          path: `/search/${query.replace(/\s+/g, '-')}-${i}.pdf`,
          score: Number((1 / i).toFixed(2)),
        })),
        total: pick(query, 3, 60),
      };
    },
  ),
  tool(
    'filesGetMetadata',
    'Get size, MIME type, owner and timestamps of a file.',
    { path: pathProp },
    ['path'],
    (input) => {
      const path = s(input, 'path', '/file');
      return {
        path,
        size: pick(path, 100, 5000000),
        mimeType: path.endsWith('.pdf') ? 'application/pdf' : 'text/plain',
        owner: 'owner@example.com',
        modifiedAt: FIXED_ISO,
      };
    },
  ),
  tool(
    'files.share-link',
    'Create a shareable link to a file with view or edit access and an optional expiry.',
    {
      path: pathProp,
      access: enumOf(['view', 'comment', 'edit'], 'Permission granted by the link.'),
      expiresInDays: int('Days until the link expires.', 1, 365),
      password: str('Optional password for the link.'),
    },
    ['path'],
    (input) => ({
      url: `https://drive.example.com/s/${hash(s(input, 'path')).toString(36)}`,
      access: s(input, 'access', 'view'),
      passwordProtected: s(input, 'password') !== '',
    }),
  ),
  tool(
    'files.share-with-users',
    'Share a file or folder with specific people by email.',
    {
      path: pathProp,
      emails: arr(str('Email address.'), 'People to share with.'),
      role: enumOf(['viewer', 'commenter', 'editor'], 'Role granted.'),
      notify: bool('Send an email notification.'),
    },
    ['path', 'emails'],
    (input) => ({
      path: s(input, 'path'),
      permissions: strings(input, 'emails').map((email) => ({
        email,
        role: s(input, 'role', 'viewer'),
      })),
    }),
  ),
  tool(
    'files__list_versions',
    'List previous versions of a file with their sizes and authors.',
    { path: pathProp },
    ['path'],
    (input) => {
      const path = s(input, 'path', '/file');
      return {
        versions: [3, 2, 1].map((v) => ({
          version: v,
          size: pick(path + v, 100, 9000),
          author: `user${v}@example.com`,
        })),
      };
    },
  ),
  tool(
    'files__restore_version',
    'Restore a file to one of its previous versions.',
    { path: pathProp, version: int('Version number to restore.', 1) },
    ['path', 'version'],
    (input) => ({ path: s(input, 'path'), restoredVersion: n(input, 'version', 1), newVersion: 4 }),
  ),
  tool(
    'files-get-storage-quota',
    'Report how much drive storage is used and available.',
    {},
    [],
    () => ({ usedBytes: 8_421_000_000, totalBytes: 15_000_000_000, trashBytes: 120_000_000 }),
  ),
  tool(
    'files_compress',
    'Bundle several files or folders into a zip archive.',
    {
      paths: arr(str('Path to include.'), 'Files and folders to compress.'),
      archivePath: str('Where to write the zip file.'),
    },
    ['paths', 'archivePath'],
    (input) => ({
      archivePath: s(input, 'archivePath', '/archive.zip'),
      fileCount: strings(input, 'paths').length,
      sizeBytes: pick(strings(input, 'paths').join(), 1000, 900000),
    }),
  ),
];
