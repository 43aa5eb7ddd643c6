import { clamp, fakeId, hash, n, pick, records, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const sheetIdProp = str('Spreadsheet id.');
const rangeProp = str('A1-notation range, e.g. "Sheet1!A1:D20".');
const cell = { type: ['string', 'number', 'boolean'], description: 'Cell value.' };
const rowsProp = arr(arr(cell, 'One row of cells.'), 'Rows of cell values.');

/** Parses the number of rows covered by an A1 range like "A1:D20"; defaults to 3. */
const rowSpan = (range: string): number => {
  const m = range.match(/(\d+):[A-Z]+(\d+)/i);
  return m ? Math.abs(Number(m[2]) - Number(m[1])) + 1 : 3;
};

export const spreadsheetsTools: ExampleTool[] = [
  tool(
    'sheets_read_range',
    'Read cell values from a range of a spreadsheet.',
    {
      spreadsheetId: sheetIdProp,
      range: rangeProp,
      valueRender: enumOf(['formatted', 'unformatted', 'formula'], 'How values are returned.'),
    },
    ['spreadsheetId', 'range'],
    (input) => {
      const range = s(input, 'range', 'A1:B3');
      const rows = clamp(rowSpan(range), 1, 5);
      return {
        range,
        values: Array.from({ length: rows }, (_, i) => [`r${i + 1}`, pick(range + i, 0, 1000)]),
      };
    },
  ),
  tool(
    'sheets_write_range',
    'Write values into a range, overwriting what is there.',
    {
      spreadsheetId: sheetIdProp,
      range: rangeProp,
      values: rowsProp,
      userEntered: bool('Parse values as if typed by a user.'),
    },
    ['spreadsheetId', 'range', 'values'],
    (input) => {
      const rows = Array.isArray(input.values) ? input.values : [];
      const cells = rows.reduce<number>((sum, r) => sum + (Array.isArray(r) ? r.length : 0), 0);
      return { updatedRange: s(input, 'range'), updatedRows: rows.length, updatedCells: cells };
    },
  ),
  tool(
    'sheets_append_rows',
    'Append rows after the last row of data in a sheet.',
    { spreadsheetId: sheetIdProp, sheet: str('Sheet (tab) name.'), values: rowsProp },
    ['spreadsheetId', 'values'],
    (input) => {
      const added = Array.isArray(input.values) ? input.values.length : 0;
      const start = pick(s(input, 'spreadsheetId'), 2, 500);
      return {
        sheet: s(input, 'sheet', 'Sheet1'),
        appendedRange: `A${start}:Z${start + Math.max(0, added - 1)}`,
        rowsAdded: added,
      };
    },
  ),
  tool(
    'sheets_clear_range',
    'Clear the values (not formatting) in a range.',
    { spreadsheetId: sheetIdProp, range: rangeProp },
    ['spreadsheetId', 'range'],
    (input) => ({ clearedRange: s(input, 'range') }),
  ),
  tool(
    'sheetsCreateSpreadsheet',
    'Create a new spreadsheet with named sheets.',
    { title: str('Spreadsheet title.'), sheets: arr(str('Sheet name.'), 'Tabs to create.') },
    ['title'],
    (input) => {
      const id = fakeId('ss', s(input, 'title'));
      const names = strings(input, 'sheets');
      return {
        spreadsheetId: id,
        url: `https://sheets.example.com/d/${id}`,
        sheets: names.length > 0 ? names : ['Sheet1'],
      };
    },
  ),
  tool(
    'sheetsAddSheet',
    'Add a new tab to an existing spreadsheet.',
    {
      spreadsheetId: sheetIdProp,
      title: str('Tab name.'),
      rows: int('Row count.', 1, 100000),
      columns: int('Column count.', 1, 18278),
    },
    ['spreadsheetId', 'title'],
    (input) => ({
      sheetId: hash(s(input, 'title')) % 100000,
      title: s(input, 'title'),
      rows: n(input, 'rows', 1000),
      columns: n(input, 'columns', 26),
    }),
  ),
  tool(
    'sheetsListSheets',
    'List the tabs in a spreadsheet with their sizes.',
    { spreadsheetId: sheetIdProp },
    ['spreadsheetId'],
    (input) => {
      const id = s(input, 'spreadsheetId', 'ss');
      return {
        sheets: ['Summary', 'Data', 'Config'].map((title, i) => ({
          sheetId: i,
          title,
          rowCount: pick(id + title, 10, 5000),
        })),
      };
    },
  ),
  tool(
    'sheets.find-replace',
    'Find and replace text across a sheet or the whole spreadsheet.',
    {
      spreadsheetId: sheetIdProp,
      find: str('Text to find.'),
      replacement: str('Replacement text.'),
      matchCase: bool('Case-sensitive.'),
      sheet: str('Limit to one tab.'),
    },
    ['spreadsheetId', 'find', 'replacement'],
    (input) => ({
      occurrencesChanged: pick(s(input, 'find'), 0, 40),
      sheetsChanged: s(input, 'sheet') ? 1 : pick(s(input, 'find'), 1, 3),
    }),
  ),
  tool(
    'sheets.format-cells',
    'Apply formatting (bold, background colour, number format) to a range.',
    {
      spreadsheetId: sheetIdProp,
      range: rangeProp,
      format: obj(
        {
          bold: bool('Bold text.'),
          backgroundColor: str('Hex colour, e.g. "#FFF2CC".'),
          numberFormat: enumOf(['text', 'number', 'currency', 'percent', 'date'], 'Number format.'),
        },
        [],
        'Formatting to apply.',
      ),
    },
    ['spreadsheetId', 'range', 'format'],
    (input) => ({
      range: s(input, 'range'),
      formatted: true,
      cells: rowSpan(s(input, 'range')) * 4,
    }),
  ),
  tool(
    'sheets.sort-range',
    'Sort the rows in a range by one or more columns.',
    {
      spreadsheetId: sheetIdProp,
      range: rangeProp,
      sortSpecs: arr(
        obj({ column: str('Column letter.'), order: enumOf(['asc', 'desc'], 'Order.') }, [
          'column',
        ]),
        'Sort keys.',
      ),
    },
    ['spreadsheetId', 'range', 'sortSpecs'],
    (input) => ({
      range: s(input, 'range'),
      sortedBy: records(input, 'sortSpecs').map((sp) => String(sp.column ?? '?')),
    }),
  ),
  tool(
    'sheets__evaluate_formula',
    'Evaluate a spreadsheet formula such as =SUM(B2:B10) against the sheet data.',
    { spreadsheetId: sheetIdProp, formula: str('Formula beginning with "=".') },
    ['spreadsheetId', 'formula'],
    (input) => ({
      formula: s(input, 'formula'),
      result: pick(s(input, 'formula'), 0, 100000) / 10,
    }),
  ),
  tool(
    'sheets__create_chart',
    'Create a chart from a data range and place it on a sheet.',
    {
      spreadsheetId: sheetIdProp,
      sourceRange: rangeProp,
      chartType: enumOf(['line', 'bar', 'column', 'pie', 'scatter'], 'Chart type.'),
      title: str('Chart title.'),
    },
    ['spreadsheetId', 'sourceRange', 'chartType'],
    (input) => ({
      chartId: pick(s(input, 'sourceRange') + s(input, 'chartType'), 1, 99999),
      chartType: s(input, 'chartType', 'line'),
    }),
  ),
  tool(
    'sheets__create_pivot_table',
    'Build a pivot table summarising a data range by row groups and aggregated values.',
    {
      spreadsheetId: sheetIdProp,
      sourceRange: rangeProp,
      rows: arr(str('Column header to group by.'), 'Row groups.'),
      values: arr(
        obj(
          {
            column: str('Column header.'),
            summarize: enumOf(['sum', 'count', 'average', 'max', 'min'], 'Aggregation.'),
          },
          ['column', 'summarize'],
        ),
        'Aggregated values.',
      ),
    },
    ['spreadsheetId', 'sourceRange', 'rows', 'values'],
    (input) => ({
      pivotSheet: `Pivot ${pick(s(input, 'sourceRange'), 1, 9)}`,
      groups: strings(input, 'rows'),
      measures: records(input, 'values').length,
    }),
  ),
  tool(
    'csv_to_sheet',
    'Import CSV text into a new tab of a spreadsheet.',
    {
      spreadsheetId: sheetIdProp,
      csv: str('CSV text with a header row.'),
      delimiter: enumOf([',', ';', '\t'], 'Field separator.'),
    },
    ['spreadsheetId', 'csv'],
    (input) => {
      const lines = s(input, 'csv')
        .split('\n')
        .filter((l) => l.trim() !== '');
      return {
        sheet: 'Imported',
        rowsImported: Math.max(0, lines.length - 1),
        columns: (lines[0] ?? '').split(s(input, 'delimiter', ',')).length,
      };
    },
  ),
];
