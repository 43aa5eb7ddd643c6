import { clamp, FIXED_ISO, fakeId, n, pick, record, records, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const pageIdProp = str('Page id.');

export const notesTools: ExampleTool[] = [
  tool(
    'notion_search',
    'Search Notion pages and databases by title and content.',
    {
      query: str('Words to search for.'),
      filter: enumOf(['page', 'database'], 'Only return this object type.'),
      pageSize: int('Results per page.', 1, 100),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      const count = clamp(n(input, 'pageSize', 3), 1, 4);
      return {
        results: Array.from({ length: count }, (_, i) => ({
          id: fakeId('page', query + i),
          object: s(input, 'filter', 'page'),
          title: `${query} ${['notes', 'plan', 'retro', 'spec'][i] ?? 'doc'}`,
        })),
      };
    },
  ),
  tool(
    'notion_create_page',
    'Create a Notion page under a parent page or database with Markdown content.',
    {
      parentId: str('Parent page or database id.'),
      title: str('Page title.'),
      content: str('Page body in Markdown.'),
      properties: obj({}, [], 'Database property values when the parent is a database.'),
    },
    ['parentId', 'title'],
    (input) => {
      const id = fakeId('page', s(input, 'parentId') + s(input, 'title'));
      return { id, url: `https://notion.example.com/${id}`, createdTime: FIXED_ISO };
    },
  ),
  tool(
    'notion_get_page',
    'Retrieve a Notion page’s properties and content blocks.',
    { pageId: pageIdProp, includeContent: bool('Also return the page blocks.') },
    ['pageId'],
    (input) => ({
      id: s(input, 'pageId'),
      title: 'Quarterly planning',
      blocks:
        input.includeContent === false
          ? []
          : [
              { type: 'heading_1', text: 'Goals' },
              { type: 'paragraph', text: 'Ship v2.' },
            ],
    }),
  ),
  tool(
    'notion_append_blocks',
    'Append content blocks such as paragraphs, to-dos and headings to a page.',
    {
      pageId: pageIdProp,
      blocks: arr(
        obj(
          {
            type: enumOf(
              ['paragraph', 'heading_1', 'heading_2', 'to_do', 'bulleted_list_item', 'code'],
              'Block type.',
            ),
            text: str('Block text.'),
            checked: bool('For to-do blocks.'),
          },
          ['type', 'text'],
        ),
        'Blocks to append, in order.',
      ),
    },
    ['pageId', 'blocks'],
    (input) => ({ pageId: s(input, 'pageId'), appended: records(input, 'blocks').length }),
  ),
  tool(
    'notion_query_database',
    'Query a Notion database with a property filter and sort.',
    {
      databaseId: str('Database id.'),
      filter: obj(
        {
          property: str('Property name.'),
          equals: str('Value the property must equal.'),
        },
        ['property'],
        'Simple equality filter.',
      ),
      sortBy: str('Property to sort by.'),
      direction: enumOf(['ascending', 'descending'], 'Sort direction.'),
    },
    ['databaseId'],
    (input) => {
      const db = s(input, 'databaseId', 'db');
      const filter = record(input, 'filter');
      return {
        rows: [1, 2].map((i) => ({
          id: fakeId('page', db + i),
          properties: {
            Name: `Row ${i}`,
            ...(typeof filter.property === 'string'
              ? { [filter.property]: filter.equals ?? null }
              : {}),
          },
        })),
      };
    },
  ),
  tool(
    'notionUpdatePageProperties',
    'Update property values (status, date, tags, etc.) on a database page.',
    { pageId: pageIdProp, properties: obj({}, [], 'Property name to new value.') },
    ['pageId', 'properties'],
    (input) => ({
      id: s(input, 'pageId'),
      updated: Object.keys(record(input, 'properties')).sort(),
    }),
  ),
  tool(
    'notionArchivePage',
    'Archive (soft-delete) a Notion page.',
    { pageId: pageIdProp },
    ['pageId'],
    (input) => ({ id: s(input, 'pageId'), archived: true }),
  ),
  tool(
    'notes.create-note',
    'Create a quick note with optional tags in the personal notes app.',
    {
      title: str('Note title.'),
      body: str('Note text.'),
      tags: arr(str('Tag.'), 'Tags.'),
      pinned: bool('Pin to top.'),
    },
    ['body'],
    (input) => ({
      id: fakeId('note', s(input, 'title') + s(input, 'body')),
      tags: strings(input, 'tags'),
      pinned: input.pinned === true,
    }),
  ),
  tool(
    'notes.search-notes',
    'Search personal notes by text and tag.',
    { query: str('Text to search for.'), tag: str('Only notes with this tag.') },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        notes: [1, 2].map((i) => ({
          id: fakeId('note', query + i),
          title: `${query} note ${i}`,
          tags: s(input, 'tag') ? [s(input, 'tag')] : [],
        })),
      };
    },
  ),
  tool(
    'notes.list-tags',
    'List every tag used in notes with how many notes carry it.',
    {},
    [],
    () => ({
      tags: [
        { tag: 'ideas', count: 14 },
        { tag: 'meeting', count: 31 },
        { tag: 'reading', count: 6 },
      ],
    }),
  ),
  tool(
    'notes__summarize_note',
    'Summarise a long note into a few bullet points.',
    { noteId: str('Note id.'), bullets: int('Number of bullet points.', 1, 10) },
    ['noteId'],
    (input) => ({
      noteId: s(input, 'noteId'),
      summary: Array.from(
        { length: clamp(n(input, 'bullets', 3), 1, 10) },
        (_, i) => `Key point ${i + 1}`,
      ),
    }),
  ),
  tool(
    'notes__create_checklist',
    'Create a checklist note from a list of items.',
    { title: str('Checklist title.'), items: arr(str('Item text.'), 'Checklist items.') },
    ['title', 'items'],
    (input) => ({
      id: fakeId('note', s(input, 'title')),
      items: strings(input, 'items').map((text) => ({ text, done: false })),
    }),
  ),
  tool(
    'notes_export',
    'Export a note or page as Markdown, HTML or PDF.',
    {
      noteId: str('Note or page id.'),
      format: enumOf(['markdown', 'html', 'pdf'], 'Export format.'),
    },
    ['noteId', 'format'],
    (input) => {
      const format = s(input, 'format', 'markdown');
      const ext = format === 'markdown' ? 'md' : format;
      return {
        downloadUrl: `https://export.example.com/${s(input, 'noteId')}.${ext}`,
        sizeBytes: pick(s(input, 'noteId'), 500, 200000),
      };
    },
  ),
];
