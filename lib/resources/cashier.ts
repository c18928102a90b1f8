import { defineResource, f } from './define';

/*
 * Cashier resources (cashier spec §2). The spec leaves several field lists open ("not shown"), so records keep
 * members beyond the listed ones; the listed ones get labels.
 */

const receiptFields = {
  id: f.id('Receipt ID'),
  number: f.text('Receipt Number', true),
  kind: f.text('Kind', true),
  refund_of: f.text('Refund of Receipt ID'),
  branch_id: f.int('Branch ID', true),
  register_id: f.int('Register ID'),
  session_id: f.text('Till Session ID'),
  issued_at: f.datetime('Issued At', true),
  business_date: f.date('Business Date'),
  currency: f.text('Currency'),
  subtotal_halalas: f.halalas('Subtotal'),
  tax_halalas: f.halalas('VAT'),
  total_halalas: f.halalas('Total', true),
  amount_due_halalas: f.halalas('Amount Due'),
  prepaid_applied: f.any('Prepaid Applied'),
  lines: f.rows('Lines', {
    line_no: f.int('Line Number'),
    variant_id: f.int('Variant ID'),
    name: f.text('Name'),
    qty: f.decimal('Quantity'),
    unit_price_halalas: f.halalas('Unit Price'),
    total_halalas: f.halalas('Total'),
  }),
  payments: f.rows('Payments', {
    tender: f.text('Tender'),
    amount_halalas: f.halalas('Amount'),
    scheme: f.text('Card Scheme'),
    last4: f.text('Card Last 4 Digits'),
  }),
};

export const receipt = defineResource({
  noun: 'Receipt',
  loose: true,
  fields: receiptFields,
  sample: {
    id: '01JDAB1C2D3E4F5G6H7J8K9M0N',
    number: 'JED-02-000731',
    kind: 'simplified',
    refund_of: null,
    branch_id: 2,
    register_id: 5,
    session_id: '01JDA9Z8Y7X6W5V4T3S2R1Q0P9',
    issued_at: '2026-11-21T19:44:03+03:00',
    business_date: '2026-11-21',
    currency: 'SAR',
    subtotal_halalas: 3043,
    tax_halalas: 457,
    total_halalas: 3500,
    amount_due_halalas: 0,
    prepaid_applied: null,
    lines: [
      {
        line_no: 1,
        variant_id: 118,
        name: 'قهوة عربية - كبير',
        qty: '2',
        unit_price_halalas: 1200,
        total_halalas: 2400,
      },
      {
        line_no: 2,
        variant_id: 241,
        name: 'كعكة التمر',
        qty: '1',
        unit_price_halalas: 1100,
        total_halalas: 1100,
      },
    ],
    payments: [{ tender: 'card', amount_halalas: 3500, scheme: 'mada', last4: '4417' }],
  },
});

export const creditNote = defineResource({
  noun: 'Credit Note',
  loose: true,
  fields: { ...receiptFields, id: f.id('Credit Note ID'), number: f.text('Credit Note Number', true) },
  sample: {
    ...receipt.sample,
    id: '01JDABX2Y3Z4A5B6C7D8E9F0G1',
    number: 'JED-02-CN-000042',
    kind: 'credit_note',
    refund_of: '01JDAB1C2D3E4F5G6H7J8K9M0N',
    subtotal_halalas: 957,
    tax_halalas: 143,
    total_halalas: 1100,
    lines: [
      {
        line_no: 1,
        variant_id: 241,
        name: 'كعكة التمر',
        qty: '1',
        unit_price_halalas: 1100,
        total_halalas: 1100,
      },
    ],
    payments: [{ tender: 'card', amount_halalas: 1100, scheme: 'mada', last4: '4417' }],
  },
});

export const session = defineResource({
  noun: 'Till Session',
  loose: true,
  fields: {
    id: f.id('Session ID'),
    branch_id: f.int('Branch ID', true),
    register_id: f.int('Register ID', true),
    status: f.text('Status'),
    business_date: f.date('Business Date'),
    receipts: f.int('Receipts Issued', true),
    total_halalas: f.halalas('Total Sales', true),
    net_sales_halalas: f.halalas('Net Sales'),
    variance_halalas: f.halalas('Cash Variance', true),
    z_report: f.object(
      'Z-Report',
      {
        sales: f.object('Sales', { total_halalas: f.halalas('Sales Total') }, true),
        // Deposits already invoiced, netted in the Z-report (cashier spec §2).
        prepayments_applied: f.object(
          'Prepayments Applied',
          { total_halalas: f.halalas('Prepayments Applied') },
          true,
        ),
      },
      true,
    ),
  },
  sample: {
    id: '01JDA9Z8Y7X6W5V4T3S2R1Q0P9',
    branch_id: 2,
    register_id: 5,
    status: 'closed',
    business_date: '2026-11-21',
    receipts: 184,
    total_halalas: 1284550,
    net_sales_halalas: 1117000,
    variance_halalas: -250,
    z_report: { sales: { total_halalas: 1284550 } },
  },
});

export const stockLevel = defineResource({
  noun: 'Stock Level',
  loose: true,
  fields: {
    branch_id: f.intId('Branch ID'),
    variant_id: f.intId('Variant ID'),
    sku: f.text('SKU', true),
    name_ar: f.text('Name (Arabic)', true),
    qty: f.decimal('Quantity on Hand'),
    reorder_point: f.decimal('Reorder Point'),
    suggested_qty: f.decimal('Suggested Order Quantity'),
  },
  // A stock level has no id of its own: branch and variant name it (CONTRACT §2).
  decorate: (s) => ({ id: `${s.branch_id}:${s.variant_id}` }),
  decoratedFields: [{ key: 'id', label: 'Stock Level ID (Branch:Variant)', type: 'string' }],
  sample: {
    branch_id: 1,
    variant_id: 118,
    sku: 'COF-AR-L',
    name_ar: 'قهوة عربية - كبير',
    qty: '4',
    reorder_point: '10',
    suggested_qty: '30',
  },
});

export const order = defineResource({
  noun: 'Order',
  loose: true,
  fields: {
    id: f.id('Order ID'),
    external_id: f.text('External Order ID', true),
    provider: f.text('Provider'),
    status: f.text('Status', true),
    total_halalas: f.halalas('Total', true),
  },
  sample: {
    id: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
    external_id: 'SHOP-100482',
    provider: 'zapier',
    status: 'received',
    total_halalas: 8650,
  },
});

/** order.status_changed: the order with the move it made (cashier spec §6). */
export const orderStatusChange = defineResource({
  noun: 'Order',
  loose: true,
  fields: {
    ...order.fields,
    from: f.text('Previous Status', true),
    to: f.text('New Status', true),
  },
  sample: { ...order.sample, from: 'received', to: 'accepted', status: 'accepted' },
});

export const customer = defineResource({
  noun: 'Customer',
  loose: true,
  fields: {
    id: f.intId('Customer ID'),
    marketing_consent: f.bool('Marketing Consent'),
    name: f.text('Name', true),
    phone: f.text('Phone', true),
    email: f.text('Email'),
    address: f.text('Address'),
    vat_number: f.text('VAT Number'),
    cr_number: f.text('Commercial Registration Number'),
  },
  sample: {
    id: 5521,
    marketing_consent: true,
    name: 'خالد الغامدي',
    phone: '+966555012345',
    email: 'khalid.g@example.com',
    address: null,
    vat_number: null,
    cr_number: null,
  },
});

export const branch = defineResource({
  noun: 'Branch',
  loose: true,
  fields: {
    id: f.intId('Branch ID'),
    name: f.text('Name', true),
    name_ar: f.text('Name (Arabic)'),
    name_en: f.text('Name (English)'),
  },
  sample: { id: 1, name: 'الرياض - العليا', name_ar: 'الرياض - العليا', name_en: 'Riyadh - Olaya' },
});

export const variantFields = {
  id: f.int('Variant ID'),
  plu: f.text('PLU'),
  name_ar: f.text('Variant Name (Arabic)'),
  sku: f.text('SKU'),
  barcode: f.text('Barcode'),
  price_halalas: f.halalas('Price'),
  is_default: f.bool('Default Variant'),
};

export const item = defineResource({
  noun: 'Item',
  loose: true,
  fields: {
    id: f.intId('Item ID'),
    name_ar: f.text('Name (Arabic)', true),
    name_en: f.text('Name (English)', true),
    category_id: f.int('Category ID'),
    default_price_halalas: f.halalas('Default Price'),
    variants: f.rows('Variants', variantFields),
    // Arrays the spec does not detail: passed through as they come, listed as such in the outputs.
    modifier_group_ids: { ...f.any('Modifier Group IDs'), type: 'integer' as const, list: true },
    combo_slots: { ...f.any('Combo Slots'), list: true },
  },
  sample: {
    id: 311,
    name_ar: 'قهوة عربية',
    name_en: 'Arabic Coffee',
    category_id: 4,
    default_price_halalas: 900,
    variants: [
      {
        id: 117,
        plu: 'V117',
        name_ar: 'صغير',
        sku: 'COF-AR-S',
        barcode: '6281000001170',
        price_halalas: 900,
        is_default: true,
      },
      {
        id: 118,
        plu: 'V118',
        name_ar: 'كبير',
        sku: 'COF-AR-L',
        barcode: '6281000001187',
        price_halalas: 1200,
        is_default: false,
      },
    ],
    modifier_group_ids: [],
    combo_slots: [],
  },
});

export const category = defineResource({
  noun: 'Category',
  loose: true,
  fields: {
    id: f.intId('Category ID'),
    name: f.text('Name', true),
    name_ar: f.text('Name (Arabic)'),
    name_en: f.text('Name (English)'),
  },
  sample: { id: 4, name: 'المشروبات الساخنة', name_ar: 'المشروبات الساخنة', name_en: 'Hot Drinks' },
});

export const zReport = defineResource({
  noun: 'Z-Report',
  loose: true,
  fields: {
    ...session.fields,
    // Their members are not shown (cashier spec §2); cash is what a till count compares.
    expected: f.object('Expected', { cash_halalas: f.halalas('Expected Cash') }, true),
    counted: f.object('Counted', { cash_halalas: f.halalas('Counted Cash') }, true),
  },
  sample: {
    ...session.sample,
    z_report: { sales: { total_halalas: 1284550 }, prepayments_applied: { total_halalas: 15000 } },
    expected: { cash_halalas: 412300 },
    counted: { cash_halalas: 412050 },
  },
});
