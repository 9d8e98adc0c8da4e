// The shop of bench/widget.ts: a small help center, and what its visitors type into the widget
// (questions the articles answer, in customers' words and with their typos, and questions they
// do not answer, which the built-in engine hands over).

export const ARTICLES: { title: string; body: string; questions: string[] }[] = [
  {
    title: 'Resetting your password',
    body:
      'To reset your password, open the sign-in page and choose "Forgot password". Enter the email address of your ' +
      'account and we send you a reset link, valid for 60 minutes. The link can be used once. If the email does not ' +
      'arrive within a few minutes, check your spam folder, then ask for a new link. For security, resetting your ' +
      'password signs you out of every device.',
    questions: ['How do I reset my password?', 'I forgot my password'],
  },
  {
    title: 'Shipping times and costs',
    body:
      'Orders placed before 2 pm on a working day leave our warehouse the same day. Standard delivery takes 3 to 5 ' +
      'working days and costs 4.90 EUR; it is free for orders over 50 EUR. Express delivery arrives the next working ' +
      'day and costs 9.90 EUR. We ship to every country of the European Union, the United Kingdom and Switzerland.',
    questions: ['How long does shipping take?', 'How much is delivery?'],
  },
  {
    title: 'Tracking your order',
    body:
      'As soon as your parcel leaves the warehouse we email you a tracking link. You can also find it under "My ' +
      'orders" in your account: open the order and choose "Track parcel". Tracking can take up to 24 hours to show ' +
      'the first scan after the email.',
    questions: ['Where is my order?', 'How can I track my parcel?'],
  },
  {
    title: 'Returns and refunds',
    body:
      'You can return any item within 30 days of delivery, unused and in its original packaging. Start the return ' +
      'under "My orders", print the prepaid label and drop the parcel at any post office. Once the item reaches our ' +
      'warehouse we refund the original payment method within 5 working days. Sale items can be returned too.',
    questions: ['How do I return an item?', 'When will I get my refund?'],
  },
  {
    title: 'Changing the delivery address',
    body:
      'You can change the delivery address of an order until it leaves the warehouse: open the order under "My ' +
      'orders" and choose "Edit address". Once the parcel has shipped the address can no longer be changed, but you ' +
      'can redirect it from the carrier\'s tracking page.',
    questions: ['Can I change my delivery address?', 'I entered the wrong address'],
  },
  {
    title: 'Payment methods',
    body:
      'We accept Visa, Mastercard, American Express, PayPal, Apple Pay and Google Pay. Klarna lets you pay within 30 ' +
      'days. Your card is charged when the order ships, not when you place it. We do not accept cheques or cash on ' +
      'delivery.',
    questions: ['Which payment methods do you accept?', 'Can I pay with PayPal?'],
  },
  {
    title: 'Cancelling your subscription',
    body:
      'Your Plus subscription can be cancelled at any time under "Account" > "Subscription" > "Cancel". You keep the ' +
      'benefits until the end of the period you paid for, and you are not charged again. Cancelling does not delete ' +
      'your account or your order history.',
    questions: ['How do I cancel my subscription?', 'Stop my Plus membership'],
  },
  {
    title: 'Gift cards',
    body:
      'Gift cards are sold from 10 to 500 EUR and are valid for three years. Enter the code at checkout under "Gift ' +
      'card or voucher"; what remains stays on the card for the next order. Gift cards cannot be exchanged for cash.',
    questions: ['How do I use a gift card?', 'Do gift cards expire?'],
  },
];

/** What visitors write, in the order a visitor walks through them (each starts at its own place). */
export const VISITOR_MESSAGES: string[] = [
  'hi, how do i reset my pasword?',
  'How long does shipping take to Germany?',
  'where is my order, i ordered last week',
  'Can I return a sale item?',
  'is there a store in Lisbon where I can try the shoes on?',
  'how much is express delivery',
  'I typed the wrong adress, can i still change it?',
  'do you take paypal',
  'My parcel arrived damaged and the box was wet, what now?',
  'how do i cancel my plus subscribtion',
  'when do i get my refund back?',
  'Do you have this jacket in size XXL in dark green?',
  'can I pay with klarna later?',
  'do gift cards expire',
  'Can you ship to Canada?',
  'the reset link in the email does not work',
  'How can I track my parcel?',
  'Why was my card charged twice for the same order?',
];

/** What a visitor writes to reach a person. */
export const ASK_FOR_PERSON = 'I want to talk to a person';

/** A person's reply to a conversation handed over. */
export const PERSON_REPLY = 'Hello, this is Maria from the support team. I am looking into your question now.';
