/**
 * {@code ridgeline serve}: the HTTP API and the web page. {@link io.ridgeline.web.ApiServer} is the
 * server (the JDK's {@code com.sun.net.httpserver}); each request runs a command of the command
 * line in the process and answers with its {@code --json} output. The API is described in
 * docs/web.md and, as OpenAPI 3, at {@code /api/openapi.json}.
 */
package io.ridgeline.web;
