// What the widget itself says, in the languages it ships. `data-locale` (or the browser's
// language) picks one by its language part (fr-CA -> fr); any other language reads English.

export interface Strings {
  /** The panel's heading when the page gives no data-title. */
  title: string;
  open: string;
  close: string;
  intro: string;
  placeholder: string;
  inputLabel: string;
  send: string;
  talkToPerson: string;
  /** The visitor's message when they press "talk to a person". */
  personRequest: string;
  held: string;
  typing: string;
  you: string;
  agent: string;
  person: string;
  helpful: string;
  notHelpful: string;
  thanks: string;
  retry: string;
  failed: string;
  tooMany: (seconds: number) => string;
  unavailable: string;
  newMessage: string;
}

const en: Strings = {
  title: 'Support',
  open: 'Open chat',
  close: 'Close chat',
  intro: 'Ask us anything. An AI agent answers from our help center, and you can ask for a person at any time.',
  placeholder: 'Write a message…',
  inputLabel: 'Your message',
  send: 'Send',
  talkToPerson: 'Talk to a person',
  personRequest: 'I would like to talk to a person.',
  held: 'A person from the team will reply here.',
  typing: 'The agent is writing a reply',
  you: 'You',
  agent: 'Agent',
  person: 'Team',
  helpful: 'This answered my question',
  notHelpful: 'This did not answer my question',
  thanks: 'Thanks for the feedback.',
  retry: 'Send again',
  failed: 'Not sent.',
  tooMany: (s) => `Too many messages. Try again in ${s} s.`,
  unavailable: 'The chat is not available on this page right now.',
  newMessage: 'New message',
};

const fr: Strings = {
  title: 'Assistance',
  open: 'Ouvrir la discussion',
  close: 'Fermer la discussion',
  intro: 'Posez votre question. Un agent IA répond à partir de notre centre d’aide, et vous pouvez demander une personne à tout moment.',
  placeholder: 'Écrivez un message…',
  inputLabel: 'Votre message',
  send: 'Envoyer',
  talkToPerson: 'Parler à une personne',
  personRequest: 'Je voudrais parler à une personne.',
  held: 'Une personne de l’équipe va vous répondre ici.',
  typing: 'L’agent écrit une réponse',
  you: 'Vous',
  agent: 'Agent',
  person: 'Équipe',
  helpful: 'Cela a répondu à ma question',
  notHelpful: 'Cela n’a pas répondu à ma question',
  thanks: 'Merci pour votre retour.',
  retry: 'Renvoyer',
  failed: 'Non envoyé.',
  tooMany: (s) => `Trop de messages. Réessayez dans ${s} s.`,
  unavailable: 'La discussion n’est pas disponible sur cette page pour le moment.',
  newMessage: 'Nouveau message',
};

const de: Strings = {
  title: 'Support',
  open: 'Chat öffnen',
  close: 'Chat schließen',
  intro: 'Fragen Sie uns. Ein KI-Agent antwortet aus unserem Hilfecenter, und Sie können jederzeit nach einer Person fragen.',
  placeholder: 'Nachricht schreiben…',
  inputLabel: 'Ihre Nachricht',
  send: 'Senden',
  talkToPerson: 'Mit einer Person sprechen',
  personRequest: 'Ich möchte mit einer Person sprechen.',
  held: 'Eine Person aus dem Team antwortet Ihnen hier.',
  typing: 'Der Agent schreibt eine Antwort',
  you: 'Sie',
  agent: 'Agent',
  person: 'Team',
  helpful: 'Das hat meine Frage beantwortet',
  notHelpful: 'Das hat meine Frage nicht beantwortet',
  thanks: 'Danke für Ihre Rückmeldung.',
  retry: 'Erneut senden',
  failed: 'Nicht gesendet.',
  tooMany: (s) => `Zu viele Nachrichten. Versuchen Sie es in ${s} s erneut.`,
  unavailable: 'Der Chat ist auf dieser Seite gerade nicht verfügbar.',
  newMessage: 'Neue Nachricht',
};

const es: Strings = {
  title: 'Soporte',
  open: 'Abrir el chat',
  close: 'Cerrar el chat',
  intro: 'Pregúntenos lo que quiera. Un agente de IA responde desde nuestro centro de ayuda, y puede pedir una persona en cualquier momento.',
  placeholder: 'Escriba un mensaje…',
  inputLabel: 'Su mensaje',
  send: 'Enviar',
  talkToPerson: 'Hablar con una persona',
  personRequest: 'Me gustaría hablar con una persona.',
  held: 'Una persona del equipo le responderá aquí.',
  typing: 'El agente está escribiendo una respuesta',
  you: 'Usted',
  agent: 'Agente',
  person: 'Equipo',
  helpful: 'Esto respondió a mi pregunta',
  notHelpful: 'Esto no respondió a mi pregunta',
  thanks: 'Gracias por su opinión.',
  retry: 'Reenviar',
  failed: 'No enviado.',
  tooMany: (s) => `Demasiados mensajes. Inténtelo de nuevo en ${s} s.`,
  unavailable: 'El chat no está disponible en esta página en este momento.',
  newMessage: 'Mensaje nuevo',
};

const nl: Strings = {
  title: 'Klantenservice',
  open: 'Chat openen',
  close: 'Chat sluiten',
  intro: 'Stel ons uw vraag. Een AI-agent antwoordt vanuit ons helpcentrum, en u kunt altijd om een persoon vragen.',
  placeholder: 'Schrijf een bericht…',
  inputLabel: 'Uw bericht',
  send: 'Versturen',
  talkToPerson: 'Met een persoon praten',
  personRequest: 'Ik wil graag met een persoon praten.',
  held: 'Iemand van het team antwoordt u hier.',
  typing: 'De agent schrijft een antwoord',
  you: 'U',
  agent: 'Agent',
  person: 'Team',
  helpful: 'Dit beantwoordde mijn vraag',
  notHelpful: 'Dit beantwoordde mijn vraag niet',
  thanks: 'Bedankt voor uw feedback.',
  retry: 'Opnieuw versturen',
  failed: 'Niet verstuurd.',
  tooMany: (s) => `Te veel berichten. Probeer het over ${s} s opnieuw.`,
  unavailable: 'De chat is op deze pagina nu niet beschikbaar.',
  newMessage: 'Nieuw bericht',
};

const BY_LANGUAGE: Record<string, Strings> = { en, fr, de, es, nl };

export const LANGUAGES = Object.keys(BY_LANGUAGE);

/** The strings for a BCP 47 tag (its language part), English for any other. */
export function stringsFor(locale: string): Strings {
  return BY_LANGUAGE[locale.toLowerCase().split('-')[0] ?? ''] ?? en;
}
