import Logging
import ServiceLifecycle
import UnixSignals

extension Service {
    /// This service in a ``ServiceGroup``, named `name` in its log lines and errors.
    ///
    /// Named here because ServiceLifecycle otherwise names a service by describing it
    /// (`"\(service)"`) as the group is made: for a Hummingbird application that reflects the
    /// whole value, router and routes included, on the way to listening.
    func serviceGroup(named name: String, gracefulShutdownSignals: [UnixSignal] = [], logger: Logger) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: self, serviceName: name)], gracefulShutdownSignals: gracefulShutdownSignals,
                logger: logger))
    }
}
