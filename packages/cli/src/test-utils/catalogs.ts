import type { CatalogTool, LabelledQuery } from '../source/catalog';

/** A small catalog of everyday tools, in the data format. */
export const OFFICE_TOOLS: CatalogTool[] = [
  {
    id: 'get_weather',
    description: 'Get the current weather forecast for a city',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'Name of the city' },
        units: { type: 'string', enum: ['metric', 'imperial'] },
      },
      required: ['city'],
    },
  },
  {
    id: 'send_email',
    description: 'Send an email message to a recipient with a subject and a body',
    inputSchema: {
      type: 'object',
      properties: {
        to: { type: 'string', description: 'Address of the recipient' },
        subject: { type: 'string' },
        body: { type: 'string' },
      },
    },
  },
  {
    id: 'create_calendar_event',
    description: "Create an event in the user's calendar at a given start time",
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, start: { type: 'string', description: 'ISO time' } },
    },
  },
  {
    id: 'translate_text',
    description: 'Translate a text from one language into another language',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        target: { type: 'string', description: 'Language code' },
      },
    },
  },
];

/** Labelled queries over {@link OFFICE_TOOLS}: three answered first, one answered badly. */
export const OFFICE_QUERIES: LabelledQuery[] = [
  { query: 'weather forecast for Paris', relevant: ['get_weather'] },
  { query: 'email my boss', relevant: ['send_email'] },
  { query: 'put a meeting in my calendar', relevant: ['create_calendar_event'] },
  // Labelled with a tool that shares none of its words: the relevant tool is not found at all.
  { query: 'send a message', relevant: ['translate_text'] },
];
