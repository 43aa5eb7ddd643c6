import { calendarTools } from './calendar';
import { commerceTools } from './commerce';
import { crmTools } from './crm';
import { databaseTools } from './database';
import { devopsTools } from './devops';
import { emailTools } from './email';
import { filesTools } from './files';
import { githubTools } from './github';
import { hrTools } from './hr';
import { mapsTools } from './maps';
import { notesTools } from './notes';
import { paymentsTools } from './payments';
import { slackTools } from './slack';
import { socialTools } from './social';
import { spreadsheetsTools } from './spreadsheets';
import { ticketsTools } from './tickets';
import { translationWebTools } from './translation-web';
import type { ExampleTool } from './types';
import { weatherTools } from './weather';

export type { ExampleTool, JsonSchema } from './types';

/** Tools grouped by product area, in catalog order. */
export const catalogByArea: Record<string, ExampleTool[]> = {
  github: githubTools,
  slack: slackTools,
  calendar: calendarTools,
  files: filesTools,
  weather: weatherTools,
  crm: crmTools,
  email: emailTools,
  tickets: ticketsTools,
  payments: paymentsTools,
  database: databaseTools,
  maps: mapsTools,
  translationWeb: translationWebTools,
  notes: notesTools,
  hr: hrTools,
  commerce: commerceTools,
  devops: devopsTools,
  spreadsheets: spreadsheetsTools,
  social: socialTools,
};

/** Every example tool, across all areas. */
export const catalog: ExampleTool[] = [
  ...githubTools,
  ...slackTools,
  ...calendarTools,
  ...filesTools,
  ...weatherTools,
  ...crmTools,
  ...emailTools,
  ...ticketsTools,
  ...paymentsTools,
  ...databaseTools,
  ...mapsTools,
  ...translationWebTools,
  ...notesTools,
  ...hrTools,
  ...commerceTools,
  ...devopsTools,
  ...spreadsheetsTools,
  ...socialTools,
];
