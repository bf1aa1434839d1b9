// The demo shop's greeting, per language (the widget picks the visitor's).

export const AGENT_DEMO_GREETING = JSON.stringify({
  en: "Hi, I'm Juniper, Nimbus Outdoor's assistant. Ask about orders, returns or gear, or try “carousel”.",
  de: "Hallo, ich bin Juniper, die Assistentin von Nimbus Outdoor. Fragen Sie nach Bestellungen, Rücksendungen oder Ausrüstung, oder probieren Sie „carousel“.",
  fr: "Bonjour, je suis Juniper, l'assistante de Nimbus Outdoor. Posez vos questions sur les commandes, les retours ou l'équipement, ou essayez « carousel ».",
  ar: 'مرحبًا، أنا Juniper، مساعدة Nimbus Outdoor. اسأل عن الطلبات أو الإرجاع أو المعدات، أو جرّب «carousel».',
  he: 'שלום, אני Juniper, העוזרת של Nimbus Outdoor. אפשר לשאול על הזמנות, החזרות או ציוד, או לנסות "carousel".',
});

/** Model mode answers in prose only, so its greeting does not suggest the badge keywords. */
export const MODEL_DEMO_GREETING = JSON.stringify({
  en: "Hi, I'm Juniper, Nimbus Outdoor's assistant. Ask me about orders, returns or gear.",
  de: "Hallo, ich bin Juniper, die Assistentin von Nimbus Outdoor. Fragen Sie mich nach Bestellungen, Rücksendungen oder Ausrüstung.",
  fr: "Bonjour, je suis Juniper, l'assistante de Nimbus Outdoor. Posez-moi vos questions sur les commandes, les retours ou l'équipement.",
  ar: 'مرحبًا، أنا Juniper، مساعدة Nimbus Outdoor. اسألني عن الطلبات أو الإرجاع أو المعدات.',
  he: 'שלום, אני Juniper, העוזרת של Nimbus Outdoor. אפשר לשאול אותי על הזמנות, החזרות או ציוד.',
});
