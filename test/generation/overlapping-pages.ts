// Fifty help-center pages that overlap the way a real help center's do: seventeen about returns,
// seventeen about shipping and sixteen about payment, each a page of its topic's section that
// repeats the topic's policy and adds one fact of its own, and the three hand-written articles
// they merge into. Used by
// bulk-overlap.test.ts and bench/bulk-generation.ts.

/** A topic: the article that covers it, and the pages that each add one fact to it. */
export interface Topic {
  article: { title: string; mainKnowledge: string; questions: string[]; keywords: string[] };
  pages: { path: string; title: string; paragraphs: string[]; fact: string }[];
}

/** Each page of a topic is titled after it and repeats its policy before the fact it adds. */
const topic = (article: Topic['article'], facts: [slug: string, subject: string, fact: string][]): Topic => ({
  article,
  pages: facts.map(([slug, subject, fact]) => ({
    path: `/hc/articles/${slug}`,
    title: `${article.title}: ${subject}`,
    paragraphs: [article.mainKnowledge, fact],
    fact,
  })),
});


export const RETURNS = topic(
  {
    title: 'Returns and refunds',
    mainKnowledge: 'You can return any unused item within 30 days of delivery for a full refund. Refunds are paid to the original payment method after the parcel arrives at our warehouse.',
    questions: ['How do I return an item?'],
    keywords: ['returns', 'refund'],
  },
  [
    ['returns-shoes', 'shoes', 'Shoes must come back unworn, in their original shoebox.'],
    ['returns-swimwear', 'swimwear', 'Swimwear is taken back only with its hygiene sticker still attached.'],
    ['returns-headphones', 'headphones', 'Headphones are taken back only while their seal is unbroken.'],
    ['returns-furniture', 'furniture', 'Furniture returns are collected from your door by our carrier partner.'],
    ['returns-gift', 'gifts', 'A gift can be returned without the receipt and is refunded as store credit.'],
    ['returns-sale', 'sale items', 'Items bought in the clearance sale are refunded as a voucher.'],
    ['returns-damaged', 'damaged items', 'Send us a photo of a damaged item and we replace it without asking for it back.'],
    ['returns-label', 'the return label', 'The prepaid return label is printed from the Orders page of your account.'],
    ['returns-store', 'in-store returns', 'Online orders can also be handed back at any of our city stores.'],
    ['returns-abroad', 'returns from abroad', 'Customers outside France pay for the return postage themselves.'],
    ['returns-jewellery', 'jewellery', 'Earrings cannot be taken back once they have been worn.'],
    ['returns-software', 'software', 'Downloaded games and licences are not refundable after activation.'],
    ['returns-bundle', 'bundles', 'A bundle has to be sent back complete; single pieces of it are not refunded.'],
    ['returns-exchange', 'exchanges', 'An exchange for another size ships as soon as the return is scanned by the courier.'],
    ['returns-mattress', 'mattresses', 'Mattresses come with a hundred-night trial and are collected for free.'],
    ['returns-bikes', 'bicycles', 'Bicycles must be returned in the cardboard frame they were delivered in.'],
    ['returns-status', 'tracking a return', 'The status of a return shows under Returns in the mobile app.'],
  ],
);

export const SHIPPING = topic(
  {
    title: 'Shipping and delivery',
    mainKnowledge: 'Orders placed before 2 pm ship the same day from our warehouse in Lyon. Every parcel gets a tracking link by email as soon as it leaves.',
    questions: ['When will my order ship?'],
    keywords: ['shipping', 'delivery'],
  },
  [
    ['shipping-germany', 'Germany', 'Parcels to Germany are carried by DHL and arrive in two to three working days.'],
    ['shipping-norway', 'Norway', 'Parcels to Norway clear customs in Oslo, and the import VAT is charged on delivery.'],
    ['shipping-uk', 'the United Kingdom', 'Orders to the United Kingdom include the duties, so nothing is due at the door.'],
    ['shipping-islands', 'Corsica', 'Deliveries to Corsica travel by ferry and take one extra day.'],
    ['shipping-express', 'express delivery', 'Express delivery reaches Paris addresses the next morning before noon.'],
    ['shipping-lockers', 'parcel lockers', 'A parcel can be sent to a Mondial Relay locker chosen at checkout.'],
    ['shipping-address', 'changing the address', 'The delivery address can be changed until the order is packed.'],
    ['shipping-missing', 'missing parcels', 'A parcel missing for ten days after dispatch is reported to the courier by our team.'],
    ['shipping-split', 'orders in several parcels', 'Large orders may be split into several parcels that arrive on different days.'],
    ['shipping-saturday', 'Saturday delivery', 'Saturday delivery is offered in Lyon and Marseille for a small surcharge.'],
    ['shipping-bulky', 'bulky items', 'Sofas and wardrobes are delivered by a two-person crew who carry them inside.'],
    ['shipping-pobox', 'post office boxes', 'We cannot deliver to post office boxes or military addresses.'],
    ['shipping-signature', 'signatures', 'Orders worth more than five hundred euros need a signature on delivery.'],
    ['shipping-green', 'carbon-neutral shipping', 'Every shipment is offset through a certified reforestation project.'],
    ['shipping-holidays', 'public holidays', 'The warehouse is closed on public holidays, so those days do not count.'],
    ['shipping-packaging', 'packaging', 'Orders are packed in recycled cardboard without any plastic filling.'],
    ['shipping-tracking', 'tracking', 'The tracking link also shows the name of the driver on the day of delivery.'],
  ],
);

export const PAYMENT = topic(
  {
    title: 'Payment methods',
    mainKnowledge: 'Your card is charged when your order ships, not when you place it. We accept Visa and Mastercard.',
    questions: ['Which payment methods do you accept?'],
    keywords: ['payment', 'card'],
  },
  [
    ['payment-paypal', 'PayPal', 'PayPal is available at checkout for every order.'],
    ['payment-apple-pay', 'Apple Pay', 'Apple Pay works in Safari and in our iPhone app.'],
    ['payment-klarna', 'instalments', 'Klarna splits an order into three interest-free instalments.'],
    ['payment-amex', 'American Express', 'American Express cards are accepted for orders shipped within Europe.'],
    ['payment-gift-card', 'gift cards', 'A gift card can be combined with a bank card for the rest of the amount.'],
    ['payment-invoice', 'invoices for businesses', 'Business customers can pay by invoice within thirty days.'],
    ['payment-currency', 'other currencies', 'Prices are shown in euros and your bank converts them at its own rate.'],
    ['payment-declined', 'declined cards', 'A declined card is usually stopped by the fraud check of your bank, so call them first.'],
    ['payment-3ds', 'payment checks by your bank', 'Your bank may ask you to confirm the payment in its app before it goes through.'],
    ['payment-vat', 'VAT', 'The invoice shows the VAT of the country the order is delivered to.'],
    ['payment-saved-cards', 'saved cards', 'Saved cards are stored by our payment provider, never on our servers.'],
    ['payment-double', 'double charges', 'A second charge is only a reservation by your bank and disappears within a week.'],
    ['payment-bank-transfer', 'bank transfers', 'A bank transfer order is held until the money reaches our account.'],
    ['payment-vouchers', 'discount codes', 'A discount code is entered at checkout before you choose how to pay, one code per order.'],
    ['payment-crypto', 'cryptocurrency', 'We do not accept Bitcoin or any other cryptocurrency.'],
    ['payment-receipt', 'receipts', 'A receipt is emailed as a PDF once the payment has been captured.'],
  ],
);

/** The three topics, 50 pages in all. */
export const TOPICS: readonly Topic[] = [RETURNS, SHIPPING, PAYMENT];

/** A help-center page with the topic's markup around its paragraphs. */
export function pageHtml(page: Topic['pages'][number]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${page.title} – Northwind Help Center</title></head><body>
<header><a href="/">Northwind</a> <a href="/hc">Help Center</a></header>
<main><article><h1>${page.title}</h1>
${page.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
</article></main>
<footer><p>Was this article helpful?</p></footer></body></html>`;
}
