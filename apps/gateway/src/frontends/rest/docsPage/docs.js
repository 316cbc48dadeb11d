// Starts Swagger UI on the gateway's own document. A file of its own, not an inline script: the
// page's content security policy allows scripts from this origin only.
window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    // The default sends the document to a validator on the internet; the reference works offline.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 0,
  });
});
