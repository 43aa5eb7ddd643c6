import { clamp, FIXED_ISO, fakeId, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const iso = (description: string) => str(description, { format: 'date-time' });
const calendarProp = str('Calendar id; defaults to the primary calendar.');

export const calendarTools: ExampleTool[] = [
  tool(
    'calendar.create-event',
    'Create a calendar event with a title, start and end time, and optional attendees.',
    {
      title: str('Event title.'),
      start: iso('Start time as an ISO 8601 string.'),
      end: iso('End time as an ISO 8601 string.'),
      attendees: arr(str('Attendee email.', { format: 'email' }), 'Attendee email addresses.'),
      location: str('Physical location or meeting link.'),
      calendarId: calendarProp,
    },
    ['title', 'start', 'end'],
    (input) => ({
      id: fakeId('evt', s(input, 'title') + s(input, 'start')),
      title: s(input, 'title'),
      start: s(input, 'start'),
      end: s(input, 'end'),
      attendees: strings(input, 'attendees').map((email) => ({ email, status: 'needsAction' })),
    }),
  ),
  tool(
    'calendar.list-events',
    'List events in a calendar between two times, ordered by start time.',
    {
      calendarId: calendarProp,
      timeMin: iso('Lower bound (inclusive) for event end time.'),
      timeMax: iso('Upper bound (exclusive) for event start time.'),
      query: str('Free-text filter on title, description and location.'),
      maxResults: int('Maximum number of events.', 1, 250),
    },
    [],
    (input) => {
      const count = clamp(n(input, 'maxResults', 3), 1, 5);
      const seed = s(input, 'calendarId', 'primary');
      return {
        events: Array.from({ length: count }, (_, i) => ({
          id: fakeId('evt', seed + i),
          title: ['Standup', 'Design review', '1:1', 'Planning', 'Retro'][i] ?? 'Meeting',
          start: `2024-03-0${i + 1}T10:00:00Z`,
          end: `2024-03-0${i + 1}T10:30:00Z`,
        })),
      };
    },
  ),
  tool(
    'calendar.get-event',
    'Get the full details of a single calendar event.',
    { eventId: str('Event id.'), calendarId: calendarProp },
    ['eventId'],
    (input) => ({
      id: s(input, 'eventId'),
      title: 'Project sync',
      start: FIXED_ISO,
      durationMinutes: pick(s(input, 'eventId'), 15, 90),
      organizer: 'owner@example.com',
    }),
  ),
  tool(
    'calendar.update-event',
    'Change the title, time, location or attendees of an existing event.',
    {
      eventId: str('Event id.'),
      changes: obj(
        {
          title: str('New title.'),
          start: iso('New start time.'),
          end: iso('New end time.'),
          location: str('New location.'),
        },
        [],
        'Fields to change; omitted fields stay as they are.',
      ),
      notifyAttendees: bool('Email attendees about the change.'),
    },
    ['eventId', 'changes'],
    (input) => {
      const changes = input.changes;
      return {
        id: s(input, 'eventId'),
        updatedFields:
          typeof changes === 'object' && changes !== null ? Object.keys(changes).sort() : [],
        notified: input.notifyAttendees === true,
      };
    },
  ),
  tool(
    'calendar.delete-event',
    'Delete an event and optionally send cancellation notices.',
    { eventId: str('Event id.'), sendCancellations: bool('Notify attendees.') },
    ['eventId'],
    (input) => ({ id: s(input, 'eventId'), deleted: true }),
  ),
  tool(
    'calendar.find-free-slots',
    'Find time slots when all the given people are free within a date range.',
    {
      attendees: arr(str('Email address.'), 'People who must all be free.'),
      durationMinutes: int('Length of the meeting to fit.', 5, 480),
      rangeStart: iso('Start of the search window.'),
      rangeEnd: iso('End of the search window.'),
      workingHoursOnly: bool('Only suggest slots within 09:00–17:00.'),
    },
    ['attendees', 'durationMinutes'],
    (input) => {
      const duration = clamp(n(input, 'durationMinutes', 30), 5, 480);
      const seed = strings(input, 'attendees').join(',');
      const hour = pick(seed, 9, 15);
      return {
        durationMinutes: duration,
        slots: [0, 1].map((d) => ({
          start: `2024-03-0${d + 4}T${String(hour + d).padStart(2, '0')}:00:00Z`,
          end: `2024-03-0${d + 4}T${String(hour + d).padStart(2, '0')}:${String(duration % 60).padStart(2, '0')}:00Z`,
        })),
      };
    },
  ),
  tool(
    'calendar.respond-to-invite',
    'Accept, decline or tentatively accept a meeting invitation.',
    {
      eventId: str('Event id.'),
      response: enumOf(['accepted', 'declined', 'tentative'], 'Your response.'),
      comment: str('Optional note to the organizer.'),
    },
    ['eventId', 'response'],
    (input) => ({ eventId: s(input, 'eventId'), response: s(input, 'response', 'accepted') }),
  ),
  tool(
    'calendar.list-calendars',
    'List the calendars the user owns or is subscribed to.',
    { includeHidden: bool('Include calendars hidden from the list.') },
    [],
    () => ({
      calendars: [
        { id: 'primary', name: 'Work', accessRole: 'owner' },
        { id: 'team-holidays', name: 'Team holidays', accessRole: 'reader' },
      ],
    }),
  ),
  tool(
    'calendarCreateRecurringEvent',
    'Create a recurring event using a simple repeat rule.',
    {
      title: str('Event title.'),
      start: iso('First occurrence start.'),
      durationMinutes: int('Length of each occurrence.', 5, 1440),
      recurrence: obj(
        {
          frequency: enumOf(['daily', 'weekly', 'monthly'], 'Repeat frequency.'),
          interval: int('Repeat every N periods.', 1, 52),
          count: int('Total occurrences.', 1, 500),
          byDay: arr(enumOf(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], 'Day.'), 'Weekdays.'),
        },
        ['frequency'],
        'Repeat rule.',
      ),
    },
    ['title', 'start', 'recurrence'],
    (input) => {
      const rule = (input.recurrence ?? {}) as Record<string, unknown>;
      const frequency = typeof rule.frequency === 'string' ? rule.frequency : 'weekly';
      return {
        id: fakeId('evt', s(input, 'title') + s(input, 'start')),
        rrule: `RRULE:FREQ=${frequency.toUpperCase()}`,
        title: s(input, 'title'),
      };
    },
  ),
  tool(
    'calendarQuickAdd',
    'Create an event from a natural-language sentence like "Lunch with Sam Friday 1pm".',
    { text: str('Natural-language event description.') },
    ['text'],
    (input) => ({
      id: fakeId('evt', s(input, 'text')),
      title: s(input, 'text').split(' ').slice(0, 3).join(' ') || 'Untitled',
      start: FIXED_ISO,
    }),
  ),
  tool(
    'calendar_get_free_busy',
    'Return busy intervals for a set of calendars in a time window.',
    {
      calendars: arr(str('Calendar id or email.'), 'Calendars to query.'),
      timeMin: iso('Window start.'),
      timeMax: iso('Window end.'),
    },
    ['calendars', 'timeMin', 'timeMax'],
    (input) => ({
      calendars: Object.fromEntries(
        strings(input, 'calendars').map((c) => [
          c,
          { busy: [{ start: '2024-03-01T10:00:00Z', end: `2024-03-01T1${pick(c, 1, 5)}:00:00Z` }] },
        ]),
      ),
    }),
  ),
  tool(
    'calendar__add_attendees',
    'Add attendees to an existing event and send them invitations.',
    { eventId: str('Event id.'), attendees: arr(str('Email address.'), 'Emails to add.') },
    ['eventId', 'attendees'],
    (input) => ({ eventId: s(input, 'eventId'), added: strings(input, 'attendees') }),
  ),
  tool(
    'calendar__set_reminder',
    'Set popup or email reminders on an event.',
    {
      eventId: str('Event id.'),
      reminders: arr(
        obj(
          {
            method: enumOf(['popup', 'email'], 'How to remind.'),
            minutesBefore: int('Minutes before start.', 0, 40320),
          },
          ['method', 'minutesBefore'],
        ),
        'Reminders to set; replaces existing ones.',
      ),
    },
    ['eventId', 'reminders'],
    (input) => ({
      eventId: s(input, 'eventId'),
      reminderCount: Array.isArray(input.reminders) ? input.reminders.length : 0,
    }),
  ),
  tool(
    'calendar.create-meeting-link',
    'Attach a video conferencing link to an event.',
    {
      eventId: str('Event id.'),
      provider: enumOf(['meet', 'zoom', 'teams'], 'Conferencing provider.'),
    },
    ['eventId'],
    (input) => {
      const provider = s(input, 'provider', 'meet');
      const code = fakeId('m', s(input, 'eventId')).slice(2);
      return {
        eventId: s(input, 'eventId'),
        provider,
        joinUrl: `https://${provider}.example.com/${code}`,
      };
    },
  ),
];
