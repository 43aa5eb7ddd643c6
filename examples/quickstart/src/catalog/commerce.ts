import { choose, clamp, FIXED_ISO, fakeId, n, pick, records, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, num, obj, str, tool } from './types';

const productProp = str('Product id.');
const orderProp = str('Order id, e.g. "#1001" or "ord_abc".');
const lineItem = obj({ sku: str('Product SKU.'), quantity: int('Quantity.', 1) }, [
  'sku',
  'quantity',
]);

export const commerceTools: ExampleTool[] = [
  tool(
    'shop_search_products',
    'Search the store catalog by keyword, category and price range.',
    {
      query: str('Keywords.'),
      category: str('Category handle, e.g. "shoes".'),
      priceRange: obj(
        { min: num('Minimum price.', 0), max: num('Maximum price.', 0) },
        [],
        'Price range.',
      ),
      inStockOnly: bool('Hide sold-out products.'),
      limit: int('Maximum products.', 1, 50),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      const count = clamp(n(input, 'limit', 3), 1, 5);
      return {
        products: Array.from({ length: count }, (_, i) => ({
          id: fakeId('prod', query + i),
          title: `${query} ${['Classic', 'Pro', 'Lite', 'Max', 'Mini'][i] ?? 'Edition'}`,
          price: pick(query + i, 5, 300) + 0.99,
          inStock: pick(`${query}${i}s`, 0, 4) > 0,
        })),
      };
    },
  ),
  tool(
    'shop_get_product',
    'Get a product with its variants, prices, images and inventory.',
    { productId: productProp },
    ['productId'],
    (input) => {
      const id = s(input, 'productId', 'prod_0');
      return {
        id,
        title: `Product ${id}`,
        variants: ['S', 'M', 'L'].map((size) => ({
          sku: `${id}-${size}`,
          size,
          price: pick(id, 10, 120),
          inventory: pick(id + size, 0, 40),
        })),
      };
    },
  ),
  tool(
    'shop_create_product',
    'Create a product listing with title, description, price and tags.',
    {
      title: str('Product title.'),
      description: str('HTML or plain-text description.'),
      price: num('Base price.', 0),
      tags: arr(str('Tag.'), 'Tags.'),
      status: enumOf(['active', 'draft', 'archived'], 'Listing status.'),
    },
    ['title', 'price'],
    (input) => ({
      id: fakeId('prod', s(input, 'title')),
      handle: s(input, 'title', 'product').toLowerCase().replace(/\W+/g, '-'),
      status: s(input, 'status', 'draft'),
    }),
  ),
  tool(
    'shop_update_inventory',
    'Set or adjust the available inventory of a SKU at a location.',
    {
      sku: str('Product SKU.'),
      locationId: str('Warehouse or store id.'),
      adjustment: int('Change in quantity; negative to remove stock.'),
      setTo: int('Absolute quantity; overrides adjustment.', 0),
    },
    ['sku'],
    (input) => {
      const before = pick(s(input, 'sku'), 0, 100);
      const after =
        typeof input.setTo === 'number' ? input.setTo : before + n(input, 'adjustment', 0);
      return { sku: s(input, 'sku'), before, available: Math.max(0, after) };
    },
  ),
  tool(
    'shopCreateOrder',
    'Create an order for a customer with line items and a shipping address.',
    {
      customerEmail: str('Customer email.'),
      lineItems: arr(lineItem, 'Items being ordered.'),
      shippingAddress: obj(
        {
          name: str('Recipient.'),
          line1: str('Street.'),
          city: str('City.'),
          zip: str('Postal code.'),
          country: str('Country code.'),
        },
        ['line1', 'city', 'country'],
        'Where to ship.',
      ),
      discountCode: str('Discount code to apply.'),
    },
    ['customerEmail', 'lineItems'],
    (input) => {
      const items = records(input, 'lineItems');
      return {
        orderId: fakeId('ord', s(input, 'customerEmail') + items.length),
        itemCount: items.reduce(
          (sum, it) => sum + (typeof it.quantity === 'number' ? it.quantity : 0),
          0,
        ),
        status: 'pending',
        createdAt: FIXED_ISO,
      };
    },
  ),
  tool(
    'shopGetOrder',
    'Get an order’s items, totals, payment status and fulfillment status.',
    { orderId: orderProp },
    ['orderId'],
    (input) => {
      const id = s(input, 'orderId', '#1000');
      const subtotal = pick(id, 20, 500);
      return {
        id,
        subtotal,
        tax: Math.round(subtotal * 0.08 * 100) / 100,
        financialStatus: choose(id, ['paid', 'pending', 'refunded'] as const),
        fulfillmentStatus: choose(`${id}f`, ['unfulfilled', 'partial', 'fulfilled'] as const),
      };
    },
  ),
  tool(
    'shopListOrders',
    'List recent orders filtered by status and date.',
    {
      status: enumOf(['open', 'closed', 'cancelled', 'any'], 'Order status.'),
      createdAfter: str('Only orders created after this ISO date.'),
      limit: int('Maximum orders.', 1, 250),
    },
    [],
    (input) => {
      const status = s(input, 'status', 'open');
      const count = clamp(n(input, 'limit', 3), 1, 5);
      return {
        orders: Array.from({ length: count }, (_, i) => ({
          id: `#${1000 + pick(status + i, 1, 8999)}`,
          status,
          total: pick(`${status}${i}t`, 10, 800),
        })),
      };
    },
  ),
  tool(
    'shop.fulfill-order',
    'Mark an order as shipped and attach carrier tracking details.',
    {
      orderId: orderProp,
      carrier: enumOf(['ups', 'fedex', 'usps', 'dhl'], 'Shipping carrier.'),
      trackingNumber: str('Carrier tracking number.'),
      notifyCustomer: bool('Email the customer.'),
    },
    ['orderId', 'carrier', 'trackingNumber'],
    (input) => ({
      fulfillmentId: fakeId('ful', s(input, 'orderId')),
      status: 'shipped',
      carrier: s(input, 'carrier', 'ups'),
    }),
  ),
  tool(
    'shop.cancel-order',
    'Cancel an order, optionally restocking items and refunding the customer.',
    {
      orderId: orderProp,
      reason: enumOf(['customer', 'inventory', 'fraud', 'other'], 'Cancellation reason.'),
      restock: bool('Return items to inventory.'),
      refund: bool('Refund the payment.'),
    },
    ['orderId'],
    (input) => ({
      orderId: s(input, 'orderId'),
      cancelled: true,
      refunded: input.refund === true,
      restocked: input.restock === true,
    }),
  ),
  tool(
    'shop__create_discount_code',
    'Create a percentage or fixed-amount discount code with usage limits.',
    {
      code: str('Code customers enter at checkout.'),
      kind: enumOf(['percentage', 'fixed_amount', 'free_shipping'], 'Discount type.'),
      value: num('Percent or amount off.', 0),
      usageLimit: int('Total redemptions allowed.', 1),
      endsAt: str('ISO expiry time.'),
    },
    ['code', 'kind'],
    (input) => ({
      id: fakeId('disc', s(input, 'code')),
      code: s(input, 'code').toUpperCase(),
      kind: s(input, 'kind', 'percentage'),
      active: true,
    }),
  ),
  tool(
    'shop__get_sales_report',
    'Summarise sales, orders and average order value over a date range.',
    {
      from: str('Start date, YYYY-MM-DD.'),
      to: str('End date, YYYY-MM-DD.'),
      groupBy: enumOf(['day', 'week', 'month'], 'Bucket size.'),
    },
    ['from', 'to'],
    (input) => {
      const key = s(input, 'from') + s(input, 'to');
      const orders = pick(key, 10, 900);
      const revenue = orders * pick(`${key}aov`, 20, 120);
      return {
        orders,
        revenue,
        averageOrderValue: Math.round((revenue / orders) * 100) / 100,
        groupBy: s(input, 'groupBy', 'day'),
      };
    },
  ),
  tool(
    'shop__calculate_shipping',
    'Quote shipping rates for a set of items to a destination.',
    {
      lineItems: arr(lineItem, 'Items to ship.'),
      destinationZip: str('Postal code.'),
      country: str('Country code.'),
    },
    ['lineItems', 'destinationZip'],
    (input) => {
      const zip = s(input, 'destinationZip', '00000');
      return {
        rates: [
          { service: 'standard', price: pick(zip, 4, 9), days: 5 },
          { service: 'express', price: pick(`${zip}x`, 12, 30), days: 2 },
        ],
      };
    },
  ),
  tool(
    'commerce_get_cart',
    'Get the contents and totals of a shopper’s cart.',
    { cartId: str('Cart id.') },
    ['cartId'],
    (input) => {
      const id = s(input, 'cartId', 'cart');
      return {
        cartId: id,
        items: [{ sku: `SKU-${pick(id, 100, 999)}`, quantity: pick(id, 1, 3) }],
        subtotal: pick(id, 10, 200),
      };
    },
  ),
  tool(
    'commerce_add_to_cart',
    'Add SKUs to a shopper’s cart.',
    { cartId: str('Cart id.'), items: arr(lineItem, 'Items to add.') },
    ['cartId', 'items'],
    (input) => ({ cartId: s(input, 'cartId'), added: records(input, 'items').length }),
  ),
  tool(
    'commerce_list_reviews',
    'List customer reviews for a product with ratings.',
    {
      productId: productProp,
      minRating: int('Minimum star rating.', 1, 5),
      tags: arr(str('Topic.'), 'Topics.'),
    },
    ['productId'],
    (input) => {
      const id = s(input, 'productId', 'prod');
      return {
        averageRating: Number((3 + pick(id, 0, 20) / 10).toFixed(1)),
        reviews: [1, 2].map((i) => ({
          rating: Math.max(n(input, 'minRating', 1), pick(id + i, 1, 5)),
          text: 'Great quality.',
          topics: strings(input, 'tags'),
        })),
      };
    },
  ),
];
