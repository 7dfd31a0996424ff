package dev.weft.archfixture.route;

/** Stands for product code of the route package, which the devnet must never import. */
public final class RouteCode {}
