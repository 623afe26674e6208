/**
 * Domains of email forwarding (alias) services: mail sent there reaches a mailbox elsewhere, and the user
 * can switch the alias off. Subdomains count too (addy.io and SimpleLogin give users their own subdomain).
 */
export const ALIAS_DOMAINS = [
  'privaterelay.appleid.com',
  'duck.com',
  'mozmail.com',
  'relay.firefox.com',
  'simplelogin.com',
  'simplelogin.co',
  'simplelogin.fr',
  'aleeas.com',
  'slmail.me',
  'slmails.com',
  'silomails.com',
  '8alias.com',
  '8shield.net',
  'dralias.com',
  'anonaddy.com',
  'anonaddy.me',
  'addy.io',
  'addymail.com',
  '33mail.com',
  'erine.email',
  'spamgourmet.com',
  'spamgourmet.net',
  'spamgourmet.org',
  'passmail.net',
  'passmail.com',
  'passinbox.com',
  'passfwd.com',
  'opayq.com',
];
