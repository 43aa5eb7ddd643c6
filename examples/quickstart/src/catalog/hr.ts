import { choose, FIXED_ISO, fakeId, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, num, obj, str, tool } from './types';

const employeeProp = str('Employee id, e.g. "E1042".');
const LEAVE_TYPES = ['vacation', 'sick', 'parental', 'unpaid', 'bereavement'] as const;
const DEPARTMENTS = ['Engineering', 'Sales', 'Marketing', 'Finance', 'People'] as const;

export const hrTools: ExampleTool[] = [
  tool(
    'hr_get_employee',
    'Get an employee’s profile: name, title, department, manager and start date.',
    { employeeId: employeeProp },
    ['employeeId'],
    (input) => {
      const id = s(input, 'employeeId', 'E0');
      return {
        id,
        name: `Employee ${id}`,
        title: choose(id, [
          'Software Engineer',
          'Account Executive',
          'Designer',
          'Analyst',
        ] as const),
        department: choose(`${id}d`, DEPARTMENTS),
        managerId: `E${pick(id, 1000, 1099)}`,
        startDate: `20${pick(id, 15, 23)}-0${pick(`${id}m`, 1, 9)}-01`,
      };
    },
  ),
  tool(
    'hr_search_employees',
    'Search the employee directory by name, department or location.',
    {
      query: str('Name or part of a name.'),
      department: enumOf(DEPARTMENTS, 'Department filter.'),
      location: str('Office or country.'),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        employees: [1, 2].map((i) => ({
          id: `E${pick(query + i, 1000, 9999)}`,
          name: `${query} ${['Lee', 'Patel'][i - 1] ?? 'Smith'}`,
          department: s(input, 'department') || choose(query + i, DEPARTMENTS),
        })),
      };
    },
  ),
  tool(
    'hr_request_time_off',
    'Submit a time-off request for approval by the employee’s manager.',
    {
      employeeId: employeeProp,
      type: enumOf(LEAVE_TYPES, 'Kind of leave.'),
      startDate: str('First day off, YYYY-MM-DD.'),
      endDate: str('Last day off, YYYY-MM-DD.'),
      note: str('Note for the approver.'),
      halfDay: bool('Request only half of the start day.'),
    },
    ['employeeId', 'type', 'startDate', 'endDate'],
    (input) => ({
      requestId: fakeId('pto', s(input, 'employeeId') + s(input, 'startDate')),
      status: 'pending_approval',
      type: s(input, 'type', 'vacation'),
    }),
  ),
  tool(
    'hr_get_time_off_balance',
    'Get remaining leave balances in days for an employee.',
    { employeeId: employeeProp },
    ['employeeId'],
    (input) => {
      const id = s(input, 'employeeId', 'E0');
      return {
        employeeId: id,
        balances: { vacation: pick(id, 0, 25), sick: pick(`${id}s`, 0, 10), parental: 0 },
      };
    },
  ),
  tool(
    'hrApproveTimeOff',
    'Approve or reject a pending time-off request.',
    {
      requestId: str('Time-off request id.'),
      decision: enumOf(['approve', 'reject'], 'Decision.'),
      comment: str('Reason.'),
    },
    ['requestId', 'decision'],
    (input) => ({
      requestId: s(input, 'requestId'),
      status: s(input, 'decision') === 'reject' ? 'rejected' : 'approved',
    }),
  ),
  tool(
    'hrListDirectReports',
    'List the people who report directly to a manager.',
    { managerId: employeeProp },
    ['managerId'],
    (input) => {
      const id = s(input, 'managerId', 'E0');
      return {
        managerId: id,
        reports: [1, 2, 3]
          .slice(0, pick(id, 1, 3))
          .map((i) => ({ id: `E${pick(id + i, 2000, 2999)}` })),
      };
    },
  ),
  tool(
    'hrGetOrgChart',
    'Return the org chart below a person down to a given depth.',
    { rootEmployeeId: employeeProp, depth: int('Levels to include.', 1, 5) },
    ['rootEmployeeId'],
    (input) => ({
      root: s(input, 'rootEmployeeId'),
      depth: n(input, 'depth', 2),
      headcount: pick(s(input, 'rootEmployeeId'), 3, 120),
    }),
  ),
  tool(
    'hr.create-job-posting',
    'Create a job opening with a title, department, location and salary band.',
    {
      title: str('Job title.'),
      department: enumOf(DEPARTMENTS, 'Hiring department.'),
      location: str('Office location or "Remote".'),
      employmentType: enumOf(['full_time', 'part_time', 'contract', 'internship'], 'Type.'),
      salary: obj(
        { min: num('Minimum.', 0), max: num('Maximum.', 0), currency: str('ISO currency code.') },
        ['min', 'max'],
        'Salary band.',
      ),
    },
    ['title', 'department'],
    (input) => ({
      jobId: fakeId('job', s(input, 'title')),
      status: 'draft',
      title: s(input, 'title'),
    }),
  ),
  tool(
    'hr.list-candidates',
    'List candidates in the hiring pipeline for a job, by stage.',
    {
      jobId: str('Job id.'),
      stage: enumOf(['applied', 'screen', 'onsite', 'offer', 'hired'], 'Stage.'),
    },
    ['jobId'],
    (input) => {
      const job = s(input, 'jobId', 'job');
      return {
        candidates: [1, 2].map((i) => ({
          id: fakeId('cand', job + i),
          name: `Candidate ${i}`,
          stage: s(input, 'stage', 'applied'),
        })),
      };
    },
  ),
  tool(
    'hr.schedule-interview',
    'Schedule an interview for a candidate with one or more interviewers.',
    {
      candidateId: str('Candidate id.'),
      interviewers: arr(str('Employee id or email.'), 'Interview panel.'),
      start: str('ISO 8601 start time.'),
      kind: enumOf(['phone_screen', 'technical', 'culture', 'final'], 'Interview type.'),
    },
    ['candidateId', 'interviewers', 'start'],
    (input) => ({
      interviewId: fakeId('int', s(input, 'candidateId') + s(input, 'start')),
      panelSize: strings(input, 'interviewers').length,
      start: s(input, 'start'),
    }),
  ),
  tool(
    'hr__submit_expense',
    'Submit an expense claim with category, amount and receipt link.',
    {
      employeeId: employeeProp,
      amount: num('Amount spent.', 0),
      currency: str('ISO currency code.'),
      category: enumOf(['travel', 'meals', 'equipment', 'software', 'other'], 'Expense category.'),
      receiptUrl: str('Link to the receipt image.'),
    },
    ['employeeId', 'amount', 'category'],
    (input) => ({
      claimId: fakeId('exp', s(input, 'employeeId') + n(input, 'amount')),
      status: 'submitted',
      submittedAt: FIXED_ISO,
    }),
  ),
  tool(
    'hr__get_payslip',
    'Get the payslip for an employee for a given month.',
    { employeeId: employeeProp, month: str('Month as YYYY-MM.') },
    ['employeeId', 'month'],
    (input) => {
      const gross = pick(s(input, 'employeeId'), 3000, 12000);
      return {
        month: s(input, 'month'),
        gross,
        tax: Math.round(gross * 0.28),
        net: gross - Math.round(gross * 0.28),
      };
    },
  ),
  tool(
    'hr__start_onboarding',
    'Kick off the onboarding checklist (accounts, laptop, buddy) for a new hire.',
    { employeeId: employeeProp, startDate: str('First day, YYYY-MM-DD.'), buddyId: employeeProp },
    ['employeeId', 'startDate'],
    (input) => ({
      onboardingId: fakeId('onb', s(input, 'employeeId')),
      tasks: ['Create accounts', 'Ship laptop', 'Assign buddy', 'Schedule orientation'],
      startDate: s(input, 'startDate'),
    }),
  ),
];
