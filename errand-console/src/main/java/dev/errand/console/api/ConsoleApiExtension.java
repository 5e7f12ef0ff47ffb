package dev.errand.console.api;

import org.springframework.web.servlet.function.RouterFunctions;

/**
 * Routes that an optional module adds to the console's JSON API, such as the script routes of
 * {@code errand-scripting}. Define one as a bean; the console adds every bean of this type, in order.
 *
 * <p>The routes are nested under the API's path ({@code <path>/api}) and come after the console's own routes, so
 * they can neither leave the console's path nor shadow its routes. Every request to them passes the console's own
 * checks first ({@link ConsoleRoutes}): reading needs a user who may view, every other method a user who may act
 * and a request that passed the CSRF protection. An extension that needs more, such as reading only for users who
 * may act, asks {@link dev.errand.console.access.ConsoleAccess} itself. An {@link IllegalArgumentException} thrown
 * by a route answers 400 with its message.
 */
@FunctionalInterface
public interface ConsoleApiExtension {

    /**
     * Adds the routes.
     *
     * @param api the builder of routes under {@code <path>/api}: a route {@code GET("/scripts")} serves
     *     {@code <path>/api/scripts}
     */
    void addRoutes(RouterFunctions.Builder api);
}
