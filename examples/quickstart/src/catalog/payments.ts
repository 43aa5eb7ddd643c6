import { choose, clamp, fakeId, n, pick, record, s } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const CURRENCIES = ['usd', 'eur', 'gbp', 'jpy', 'cad', 'aud'] as const;
const amountProp = int('Amount in the smallest currency unit, e.g. cents.', 0);
const currencyProp = enumOf(CURRENCIES, 'Three-letter ISO currency code, lowercase.');
const customerProp = str('Customer id, e.g. "cus_123".');

export const paymentsTools: ExampleTool[] = [
  tool(
    'stripe_create_payment_intent',
    'Create a payment intent to collect a one-off payment from a customer.',
    {
      amount: amountProp,
      currency: currencyProp,
      customer: customerProp,
      description: str('Shown on receipts.'),
      metadata: obj({}, [], 'Arbitrary key/value strings.'),
    },
    ['amount', 'currency'],
    (input) => {
      const id = fakeId('pi', `${n(input, 'amount')}${s(input, 'customer')}`);
      return {
        id,
        amount: n(input, 'amount', 0),
        currency: s(input, 'currency', 'usd'),
        status: 'requires_payment_method',
        clientSecret: `${id}_secret_demo`,
      };
    },
  ),
  tool(
    'stripe_create_customer',
    'Create a billing customer with an email, name and optional address.',
    {
      email: str('Customer email.'),
      name: str('Full name or business name.'),
      address: obj(
        {
          line1: str('Street address.'),
          city: str('City.'),
          postalCode: str('Postal code.'),
          country: str('Two-letter country code.'),
        },
        ['line1', 'country'],
        'Billing address.',
      ),
    },
    ['email'],
    (input) => ({ id: fakeId('cus', s(input, 'email')), email: s(input, 'email'), balance: 0 }),
  ),
  tool(
    'stripe_get_customer',
    'Retrieve a customer with their default payment method and balance.',
    { customer: customerProp },
    ['customer'],
    (input) => ({
      id: s(input, 'customer'),
      email: 'customer@example.com',
      balance: -pick(s(input, 'customer'), 0, 5000),
      defaultPaymentMethod: fakeId('pm', s(input, 'customer')),
    }),
  ),
  tool(
    'stripe_create_refund',
    'Refund all or part of a charge or payment intent.',
    {
      paymentIntent: str('Payment intent id.'),
      amount: int('Amount to refund; omit for a full refund.', 1),
      reason: enumOf(['duplicate', 'fraudulent', 'requested_by_customer'], 'Refund reason.'),
    },
    ['paymentIntent'],
    (input) => ({
      id: fakeId('re', s(input, 'paymentIntent')),
      amount: n(input, 'amount', pick(s(input, 'paymentIntent'), 500, 20000)),
      status: 'succeeded',
      reason: s(input, 'reason', 'requested_by_customer'),
    }),
  ),
  tool(
    'stripe_list_charges',
    'List recent charges, optionally for one customer.',
    { customer: customerProp, limit: int('Maximum charges.', 1, 100) },
    [],
    (input) => {
      const seed = s(input, 'customer', 'all');
      const count = clamp(n(input, 'limit', 3), 1, 5);
      return {
        data: Array.from({ length: count }, (_, i) => ({
          id: fakeId('ch', seed + i),
          amount: pick(seed + i, 100, 50000),
          currency: 'usd',
          paid: true,
        })),
      };
    },
  ),
  tool(
    'stripeCreateSubscription',
    'Subscribe a customer to one or more recurring prices.',
    {
      customer: customerProp,
      items: arr(
        obj({ price: str('Price id.'), quantity: int('Quantity.', 1) }, ['price']),
        'Prices to subscribe to.',
      ),
      trialDays: int('Free trial length in days.', 0, 730),
    },
    ['customer', 'items'],
    (input) => ({
      id: fakeId('sub', s(input, 'customer')),
      status: n(input, 'trialDays', 0) > 0 ? 'trialing' : 'active',
      itemCount: Array.isArray(input.items) ? input.items.length : 0,
    }),
  ),
  tool(
    'stripeCancelSubscription',
    'Cancel a subscription immediately or at the end of the current period.',
    { subscription: str('Subscription id.'), atPeriodEnd: bool('Cancel at period end.') },
    ['subscription'],
    (input) => ({
      id: s(input, 'subscription'),
      status: input.atPeriodEnd === true ? 'active' : 'canceled',
      cancelAtPeriodEnd: input.atPeriodEnd === true,
    }),
  ),
  tool(
    'stripeCreateInvoice',
    'Create a draft invoice for a customer with line items.',
    {
      customer: customerProp,
      lines: arr(
        obj({ description: str('Line description.'), amount: amountProp }, [
          'description',
          'amount',
        ]),
        'Invoice lines.',
      ),
      dueInDays: int('Days until payment is due.', 0, 365),
    },
    ['customer', 'lines'],
    (input) => {
      const lines = Array.isArray(input.lines) ? (input.lines as Record<string, unknown>[]) : [];
      const total = lines.reduce(
        (sum, l) => sum + (typeof l.amount === 'number' ? l.amount : 0),
        0,
      );
      return { id: fakeId('in', s(input, 'customer')), status: 'draft', total };
    },
  ),
  tool(
    'payments.send-invoice',
    'Finalize and email an invoice to the customer.',
    { invoiceId: str('Invoice id.') },
    ['invoiceId'],
    (input) => ({
      id: s(input, 'invoiceId'),
      status: 'open',
      hostedUrl: `https://pay.example.com/i/${s(input, 'invoiceId')}`,
    }),
  ),
  tool(
    'payments.create-payment-link',
    'Create a hosted payment link for a product and price.',
    {
      productName: str('What is being sold.'),
      amount: amountProp,
      currency: currencyProp,
      allowQuantity: bool('Let the buyer choose a quantity.'),
    },
    ['productName', 'amount', 'currency'],
    (input) => ({
      id: fakeId('plink', s(input, 'productName')),
      url: `https://buy.example.com/${fakeId('l', s(input, 'productName')).slice(2)}`,
    }),
  ),
  tool(
    'payments__get_balance',
    'Get the available and pending account balance per currency.',
    {},
    [],
    () => ({
      available: [{ amount: 1523400, currency: 'usd' }],
      pending: [{ amount: 84200, currency: 'usd' }],
    }),
  ),
  tool(
    'payments__list_payouts',
    'List payouts to the connected bank account.',
    { status: enumOf(['pending', 'paid', 'failed'], 'Payout status.'), limit: int('Max.', 1, 100) },
    [],
    (input) => {
      const status = s(input, 'status', 'paid');
      return {
        payouts: [1, 2].map((i) => ({
          id: fakeId('po', status + i),
          amount: pick(status + i, 10000, 900000),
          status,
          arrivalDate: `2024-02-2${i}`,
        })),
      };
    },
  ),
  tool(
    'payments__convert_currency',
    'Convert an amount between currencies using the daily reference rate.',
    { amount: amountProp, from: currencyProp, to: currencyProp },
    ['amount', 'from', 'to'],
    (input) => {
      const from = s(input, 'from', 'usd');
      const to = s(input, 'to', 'eur');
      const rate = from === to ? 1 : Number((0.5 + pick(from + to, 0, 150) / 100).toFixed(4));
      return { from, to, rate, converted: Math.round(n(input, 'amount', 0) * rate) };
    },
  ),
  tool(
    'stripe_list_disputes',
    'List open payment disputes (chargebacks) that need evidence.',
    { status: enumOf(['needs_response', 'under_review', 'won', 'lost'], 'Dispute status.') },
    [],
    (input) => {
      const status = s(input, 'status', 'needs_response');
      return {
        disputes: [
          {
            id: fakeId('dp', status),
            amount: pick(status, 1000, 30000),
            reason: choose(status, ['fraudulent', 'product_not_received'] as const),
            status,
          },
        ],
      };
    },
  ),
  tool(
    'stripe_update_customer_metadata',
    'Set metadata key/value pairs on a customer.',
    { customer: customerProp, metadata: obj({}, [], 'Keys to set; empty string removes a key.') },
    ['customer', 'metadata'],
    (input) => ({ id: s(input, 'customer'), metadata: record(input, 'metadata') }),
  ),
];
