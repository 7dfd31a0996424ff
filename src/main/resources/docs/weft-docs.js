// Swagger UI over this server's own OpenAPI document (both APIs); "Try it out" calls this server.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  docExpansion: "list",
  validatorUrl: null,
  tryItOutEnabled: false
});
