// Help-center pages shaped like real ones (Zendesk/Intercom/HelpScout-style markup): articles with
// numbered and bulleted lists, an FAQ page, and index pages that only list other articles.

const shell = (title: string, site: string, body: string): string => `<!doctype html><html><head><meta charset="utf-8">
<title>${title} – ${site}</title></head><body>
<header><a href="/">${site}</a><nav><a href="/hc/en-us">Help Center</a> <a href="/hc/en-us/requests/new">Submit a request</a> <a href="/signin">Sign in</a></nav></header>
<main>${body}</main>
<footer><p>© 2026 ${site}. All rights reserved.</p></footer></body></html>`;

/** An article with an intro, numbered steps (with a UI label ending in "?") and a bulleted list under a heading. */
export const RESET_PASSWORD = shell('Reset your password', 'Acme Help Center', `
<nav class="breadcrumbs"><a href="/hc/en-us">Acme Help Center</a> › <a href="/hc/en-us/categories/1">Account</a></nav>
<article><h1>Reset your password</h1>
<div class="article-body">
<p>If you forgot your password, you can reset it from the sign-in page in a few steps.</p>
<h2>Steps</h2>
<ol><li>On the sign-in page click Forgot password?</li><li>Enter the email address of your account</li><li>Open the link we email you and choose a new password</li></ol>
<h2>Before you start</h2>
<ul><li>Check your spam folder</li><li>The link expires after 24 hours</li><li>Single sign-on accounts reset the password with their provider</li></ul>
<p>Still stuck? Contact our support team.</p>
</div>
<footer class="article-footer"><p>Was this article helpful?</p><button>Yes</button><button>No</button></footer>
</article>`);

/** An article whose bulleted lists are full sentences, and a "What you need" list of short noun phrases. */
export const RETURN_ITEM = shell('How to return an item', 'Northwind Support', `
<article><h1>How to return an item</h1>
<p>You can return most items within 30 days of delivery. Returns are free for members.</p>
<h3>What you need</h3>
<ul><li>Your order number</li><li>The original packaging</li><li>A printed return label</li></ul>
<h3>Items we cannot take back</h3>
<ul><li>Gift cards.</li><li>Personalised items.</li><li>Opened software and downloads.</li></ul>
<p>Once the parcel arrives at our warehouse, refunds are paid to your original payment method within 5 business days.</p>
</article>`);

/** An FAQ page: questions as headings, each answered by a short paragraph. */
export const BILLING_FAQ = shell('Billing FAQ', 'Acme Help Center', `
<article><h1>Billing FAQ</h1>
<h2>When will I be charged?</h2>
<p>Your card is charged on the first day of each billing period.</p>
<h2>Can I get an invoice?</h2>
<p>Invoices are emailed as a PDF after every payment. You can also download them from Settings › Billing.</p>
<h2>Which payment methods do you accept?</h2>
<p>We accept Visa, Mastercard, American Express and PayPal.</p>
<h2>How do I cancel my subscription?</h2>
<p>Open Settings › Billing and click Cancel plan. Your plan stays active until the end of the period.</p>
</article>`);

/** A category page (Zendesk style): sections, each listing links to its articles. */
export const ACCOUNT_CATEGORY = shell('Account & billing', 'Acme Help Center', `
<nav class="breadcrumbs"><a href="/hc/en-us">Acme Help Center</a></nav>
<h1>Account &amp; billing</h1>
<section class="section"><h2><a href="/hc/en-us/sections/11">Your account</a></h2>
<ul class="article-list">
<li><a href="/hc/en-us/articles/101">Reset your password</a></li>
<li><a href="/hc/en-us/articles/102">Change the email address of your account</a></li>
<li><a href="/hc/en-us/articles/103">How do I turn on two-factor authentication?</a></li>
<li><a href="/hc/en-us/articles/104">Delete your account</a></li>
</ul><a class="see-all" href="/hc/en-us/sections/11">See all 9 articles</a></section>
<section class="section"><h2><a href="/hc/en-us/sections/12">Billing and invoices</a></h2>
<ul class="article-list">
<li><a href="/hc/en-us/articles/201">Update your payment method</a></li>
<li><a href="/hc/en-us/articles/202">Where can I find my invoices?</a></li>
<li><a href="/hc/en-us/articles/203">Why was I charged twice?</a></li>
<li><a href="/hc/en-us/articles/204">Cancel your subscription</a></li>
</ul><a class="see-all" href="/hc/en-us/sections/12">See all 6 articles</a></section>`);

/** A help center's home page: search, popular articles and topic cards. */
export const HELP_HOME = shell('Help Center', 'Northwind Support', `
<section class="hero"><h1>How can we help?</h1><form><input type="search" placeholder="Search articles"></form></section>
<section><h2>Popular articles</h2><ul>
<li><a href="/articles/1">Track your order</a></li><li><a href="/articles/2">How to return an item</a></li>
<li><a href="/articles/3">Shipping times and costs</a></li><li><a href="/articles/4">Change or cancel an order</a></li>
<li><a href="/articles/5">Which countries do you ship to?</a></li></ul></section>
<section><h2>Browse by topic</h2>
<a class="card" href="/c/orders"><h3>Orders</h3><p>12 articles</p></a>
<a class="card" href="/c/shipping"><h3>Shipping</h3><p>8 articles</p></a>
<a class="card" href="/c/returns"><h3>Returns &amp; refunds</h3><p>7 articles</p></a></section>`);

/** An article that is mostly a list of short names (countries): knowledge, not an index. */
export const SHIPPING_COUNTRIES = shell('Which countries do you ship to?', 'Northwind Support', `
<article><h1>Which countries do you ship to?</h1>
<p>We ship to the following countries. Delivery takes 3 to 5 business days.</p>
<ul><li>Austria</li><li>Belgium</li><li>Denmark</li><li>France</li><li>Germany</li><li>Ireland</li><li>Italy</li><li>Netherlands</li><li>Spain</li><li>Sweden</li></ul>
<p>We do not ship to PO boxes.</p>
</article>`);

/** A contact article (Intercom style): two long list items, then a short heading over prose. */
export const CONTACT_US = shell('How to contact us', 'Bloom Help', `
<article><h1>How to contact us</h1>
<p>Our team is here to help, seven days a week.</p>
<ul><li><strong>Chat</strong> – open the chat bubble in the app, we reply within minutes</li><li><strong>Email</strong> – write to help@bloom.test, we answer within 24 hours</li></ul>
<h2>Opening hours</h2><p>Monday to Friday, 8:00 to 20:00. Weekends 10:00 to 16:00.</p></article>`);

/** A troubleshooting article: numbered steps, one holding a statement about where data is kept. */
export const APP_WONT_OPEN = shell("The app won't open", 'Bloom Help', `
<article><h1>The app won't open</h1>
<p>Try these steps in order:</p><ol><li>Restart your phone.</li><li>Update the app from the App Store or Google Play.</li>
<li>Check that you have at least 500 MB of free storage.</li><li>Reinstall the app. Your data is kept in your account.</li></ol>
<p>If none of this helps, send us your phone model and app version.</p></article>`);

/** A HelpScout-style category page: a count of articles, then their titles. */
export const GETTING_STARTED_CATEGORY = shell('Getting Started', 'Bloom Docs', `
<h1>Getting Started</h1><p>12 articles</p>
<ul><li><a href="/a/1">Create your Bloom account</a></li><li><a href="/a/2">Invite your teammates</a></li><li><a href="/a/3">Connect your calendar</a></li>
<li><a href="/a/4">Set your working hours</a></li><li><a href="/a/5">What's the difference between admins and members?</a></li><li><a href="/a/6">Install the mobile app</a></li></ul>`);
