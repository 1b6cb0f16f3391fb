import NIOConcurrencyHelpers

// AUGraph (AUGraph.h): nodes, each a unit by description, and their interactions (a connection
// from one node's output to another's input, or a render callback into an input). Open makes the
// units; Initialize applies the interactions and initializes the units; Start starts the graph's
// one output unit. A change made while the graph is initialized waits for AUGraphUpdate, as on
// iOS. A NULL or disposed graph is kAudio_ParamError; nothing traps on what a caller passes.

/// A graph (its handle is an ``AUGraphTable`` handle).
final class AUGraphObject: @unchecked Sendable {
    // @unchecked: every stored property is under `lock`.
    struct Node {
        let id: AUNode
        let description: AudioComponentDescription
        var unit: AudioUnit?
    }

    let lock = NIOLock()
    var nodes: [Node] = []
    var nextNode: AUNode = 1
    /// The interactions in effect, and those waiting for AUGraphUpdate.
    var interactions: [AUNodeInteraction] = []
    var pending: [AUNodeInteraction]?
    var isOpen = false
    /// DisposeAUGraph has run: a call that looked the graph up before it finds it gone.
    var disposed = false
    var isInitialized = false
    var isRunning = false

    /// The node `id`, or `kAUGraphErr_NodeNotFound`.
    func index(of id: AUNode) throws(UnitStatus) -> Int {
        guard let index = nodes.firstIndex(where: { $0.id == id }) else { throw .nodeNotFound }
        return index
    }

    /// The output node's unit (the graph's one node of type output), if open.
    var outputUnit: AudioUnit? {
        nodes.first { $0.description.componentType == kAudioUnitType_Output }?.unit
    }

    /// Closes the graph (the lock is held): its units, to dispose of once it is released. Disposing,
    /// the nodes go too and every later call finds the graph gone.
    func close(disposing: Bool) -> [AudioUnit] {
        let units = nodes.compactMap(\.unit)
        if disposing {
            disposed = true
            nodes = []
        } else {
            for index in nodes.indices { nodes[index].unit = nil }
        }
        isOpen = false
        isInitialized = false
        isRunning = false
        return units
    }

    /// The input an interaction feeds.
    static func destination(_ interaction: AUNodeInteraction) -> (node: AUNode, input: UInt32) {
        interaction.nodeInteractionType == kAUNodeInteraction_Connection
            ? (interaction.nodeInteraction.connection.destNode, interaction.nodeInteraction.connection.destInputNumber)
            : (interaction.nodeInteraction.inputCallback.destNode, interaction.nodeInteraction.inputCallback.destInputNumber)
    }

    /// The interactions as they will be after the pending changes.
    var planned: [AUNodeInteraction] { pending ?? interactions }

    /// Records `change` to the interactions: at once when not initialized, else at the next update.
    func change(_ body: (inout [AUNodeInteraction]) throws(UnitStatus) -> Void) throws(UnitStatus) {
        var list = planned
        try body(&list)
        if isInitialized { pending = list } else { interactions = list }
    }

    /// Applies the interactions to the open units (the lock is held): each destination input's
    /// connection or render callback, and those no longer fed cleared.
    func apply(clearing old: [AUNodeInteraction]) throws(UnitStatus) {
        for interaction in old {
            let (node, input) = Self.destination(interaction)
            guard let unit = try? nodes[index(of: node)].unit else { continue }
            var none = AudioUnitConnection(sourceAudioUnit: nil, sourceOutputNumber: 0, destInputNumber: input)
            var noCallback = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
            _ = AudioUnitSetProperty(unit, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, input, &none,
                                     UInt32(MemoryLayout<AudioUnitConnection>.size))
            _ = AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, input, &noCallback,
                                     UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
        for interaction in interactions {
            let (node, input) = Self.destination(interaction)
            guard let unit = nodes[try index(of: node)].unit else { throw .invalidAudioUnit }
            let status: OSStatus
            if interaction.nodeInteractionType == kAUNodeInteraction_Connection {
                let connection = interaction.nodeInteraction.connection
                guard let source = nodes[try index(of: connection.sourceNode)].unit else { throw .invalidAudioUnit }
                var made = AudioUnitConnection(sourceAudioUnit: source, sourceOutputNumber: connection.sourceOutputNumber,
                                               destInputNumber: input)
                status = AudioUnitSetProperty(unit, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, input, &made,
                                              UInt32(MemoryLayout<AudioUnitConnection>.size))
            } else {
                var callback = interaction.nodeInteraction.inputCallback.cback
                status = AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, input, &callback,
                                              UInt32(MemoryLayout<AURenderCallbackStruct>.size))
            }
            guard status == noErr else { throw UnitStatus(status: status) }
        }
    }
}

/// The live graphs, by AUGraph (a ``HandleTable``, tag 8).
enum AUGraphTable {
    static let table = HandleTable<AUGraphObject>(tag: 8)

    /// How many graphs are live (for tests: nothing leaks).
    static var liveCount: Int { table.count }
}

/// Runs `body` on the graph behind `handle` with its lock held.
private func withGraph<R>(_ handle: AUGraph?, _ body: (AUGraphObject) throws(UnitStatus) -> R) throws(UnitStatus) -> R {
    guard let handle, let graph = AUGraphTable.table.object(handle) else { throw .parameter }
    return try graph.lock.withTypedLock { () throws(UnitStatus) -> R in
        guard !graph.disposed else { throw .parameter }
        return try body(graph)
    }
}

@c @implementation
public func NewAUGraph(_ outGraph: UnsafeMutablePointer<AUGraph?>?) -> OSStatus {
    guard let outGraph else { return kAudio_ParamError }
    outGraph.pointee = AUGraphTable.table.insert(AUGraphObject())
    return noErr
}

@c @implementation
public func DisposeAUGraph(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inGraph, let graph = AUGraphTable.table.remove(inGraph) else { throw .parameter }
        let units = graph.lock.withLock { graph.close(disposing: true) }
        for unit in units { _ = AudioComponentInstanceDispose(unit) }
    }
}

@c @implementation
public func AUGraphAddNode(_ inGraph: AUGraph?, _ inDescription: UnsafePointer<AudioComponentDescription>?,
                           _ outNode: UnsafeMutablePointer<AUNode>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inDescription, let outNode else { throw .parameter }
        var description = inDescription.pointee
        guard let component = AudioComponentFindNext(nil, &description) else { throw .invalidAudioUnit }
        let isOutput = description.componentType == kAudioUnitType_Output
        let unit = try withGraph(inGraph) { graph throws(UnitStatus) -> AUGraphObject in
            if isOutput && graph.nodes.contains(where: { $0.description.componentType == kAudioUnitType_Output }) {
                throw .outputNode
            }
            return graph
        }
        // An open graph makes the node's unit at once.
        var made: AudioUnit?
        if unit.lock.withLock({ unit.isOpen }) {
            let status = AudioComponentInstanceNew(component, &made)
            guard status == noErr else { throw UnitStatus(status: status) }
        }
        do throws(UnitStatus) {
            outNode.pointee = try withGraph(inGraph) { graph throws(UnitStatus) -> AUNode in
                let id = graph.nextNode
                graph.nextNode += 1
                graph.nodes.append(AUGraphObject.Node(id: id, description: description, unit: made))
                return id
            }
        } catch {
            // The graph went away meanwhile: the unit made for it goes too.
            if let made { _ = AudioComponentInstanceDispose(made) }
            throw error
        }
    }
}

@c @implementation
public func AUGraphRemoveNode(_ inGraph: AUGraph?, _ inNode: AUNode) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let unit = try withGraph(inGraph) { graph throws(UnitStatus) -> AudioUnit? in
            let index = try graph.index(of: inNode)
            let unit = graph.nodes[index].unit
            graph.nodes.remove(at: index)
            try graph.change { list in
                list.removeAll {
                    AUGraphObject.destination($0).node == inNode
                        || ($0.nodeInteractionType == kAUNodeInteraction_Connection && $0.nodeInteraction.connection.sourceNode == inNode)
                }
            }
            return unit
        }
        if let unit { _ = AudioComponentInstanceDispose(unit) }
    }
}

@c @implementation
public func AUGraphGetNodeCount(_ inGraph: AUGraph?, _ outNumberOfNodes: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outNumberOfNodes else { throw .parameter }
        outNumberOfNodes.pointee = try withGraph(inGraph) { UInt32($0.nodes.count) }
    }
}

@c @implementation
public func AUGraphGetIndNode(_ inGraph: AUGraph?, _ inIndex: UInt32, _ outNode: UnsafeMutablePointer<AUNode>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outNode else { throw .parameter }
        outNode.pointee = try withGraph(inGraph) { graph throws(UnitStatus) -> AUNode in
            guard Int(inIndex) < graph.nodes.count else { throw .nodeNotFound }
            return graph.nodes[Int(inIndex)].id
        }
    }
}

@c @implementation
public func AUGraphNodeInfo(_ inGraph: AUGraph?, _ inNode: AUNode, _ outDescription: UnsafeMutablePointer<AudioComponentDescription>?,
                            _ outAudioUnit: UnsafeMutablePointer<AudioUnit?>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph throws(UnitStatus) in
            let node = graph.nodes[try graph.index(of: inNode)]
            outDescription?.pointee = node.description
            if let outAudioUnit {
                // The unit exists once the graph is open.
                guard let unit = node.unit else { throw .invalidAudioUnit }
                outAudioUnit.pointee = unit
            }
        }
    }
}

@c @implementation
public func AUGraphOpen(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph throws(UnitStatus) in
            guard !graph.isOpen else { return }
            for index in graph.nodes.indices where graph.nodes[index].unit == nil {
                var description = graph.nodes[index].description
                guard let component = AudioComponentFindNext(nil, &description) else { throw .invalidAudioUnit }
                var unit: AudioUnit?
                let status = AudioComponentInstanceNew(component, &unit)
                guard status == noErr else { throw UnitStatus(status: status) }
                graph.nodes[index].unit = unit
            }
            graph.isOpen = true
        }
    }
}

@c @implementation
public func AUGraphClose(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let units = try withGraph(inGraph) { $0.close(disposing: false) }
        for unit in units { _ = AudioComponentInstanceDispose(unit) }
    }
}

@c @implementation
public func AUGraphInitialize(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph throws(UnitStatus) in
            guard graph.isOpen else { throw .invalidAudioUnit }
            guard !graph.isInitialized else { return }
            if let pending = graph.pending {
                graph.interactions = pending
                graph.pending = nil
            }
            try graph.apply(clearing: [])
            for node in graph.nodes {
                guard let unit = node.unit else { continue }
                let status = AudioUnitInitialize(unit)
                guard status == noErr else { throw UnitStatus(status: status) }
            }
            graph.isInitialized = true
        }
    }
}

@c @implementation
public func AUGraphUninitialize(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph in
            for unit in graph.nodes.compactMap(\.unit) { _ = AudioUnitUninitialize(unit) }
            graph.isInitialized = false
            graph.isRunning = false
        }
    }
}

@c @implementation
public func AUGraphUpdate(_ inGraph: AUGraph?, _ outIsUpdated: UnsafeMutablePointer<Bool>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph throws(UnitStatus) in
            if let pending = graph.pending, graph.isInitialized {
                let old = graph.interactions
                graph.interactions = pending
                graph.pending = nil
                try graph.apply(clearing: old)
            }
            // Changes are made at once here: always updated when the call returns.
            outIsUpdated?.pointee = true
        }
    }
}

@c @implementation
public func AUGraphStart(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let output = try withGraph(inGraph) { graph throws(UnitStatus) -> AudioUnit in
            guard graph.isInitialized else { throw .uninitialized }
            guard let output = graph.outputUnit else { throw .outputNode }
            return output
        }
        let status = AudioOutputUnitStart(output)
        guard status == noErr else { throw UnitStatus(status: status) }
        try withGraph(inGraph) { graph in graph.isRunning = true }
    }
}

@c @implementation
public func AUGraphStop(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        let output = try withGraph(inGraph) { graph -> AudioUnit? in
            graph.isRunning = false
            return graph.outputUnit
        }
        if let output { _ = AudioOutputUnitStop(output) }
    }
}

/// A graph flag as Boolean.
private func flag(_ graph: AUGraph?, _ out: UnsafeMutablePointer<Bool>?, _ read: (AUGraphObject) -> Bool) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let out else { throw .parameter }
        out.pointee = try withGraph(graph, read)
    }
}

@c @implementation
public func AUGraphIsOpen(_ inGraph: AUGraph?, _ outIsOpen: UnsafeMutablePointer<Bool>?) -> OSStatus {
    flag(inGraph, outIsOpen) { $0.isOpen }
}

@c @implementation
public func AUGraphIsInitialized(_ inGraph: AUGraph?, _ outIsInitialized: UnsafeMutablePointer<Bool>?) -> OSStatus {
    flag(inGraph, outIsInitialized) { $0.isInitialized }
}

@c @implementation
public func AUGraphIsRunning(_ inGraph: AUGraph?, _ outIsRunning: UnsafeMutablePointer<Bool>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outIsRunning else { throw .parameter }
        let (running, output) = try withGraph(inGraph) { ($0.isRunning, $0.outputUnit) }
        // An interruption stops the output unit: the graph is then not running either.
        var unitRunning = UInt32(0)
        var size = UInt32(4)
        if running, let output,
           AudioUnitGetProperty(output, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &unitRunning, &size) == noErr {
            outIsRunning.pointee = unitRunning != 0
        } else {
            outIsRunning.pointee = running
        }
    }
}

@c @implementation
public func AUGraphGetCPULoad(_ inGraph: AUGraph?, _ outAverageCPULoad: UnsafeMutablePointer<Float32>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outAverageCPULoad else { throw .parameter }
        let output = try withGraph(inGraph) { $0.outputUnit }
        guard let output, let unit = AudioUnitTable.table.object(output) else {
            outAverageCPULoad.pointee = 0
            return
        }
        outAverageCPULoad.pointee = unit.lock.withLock { unit.takeCPULoad() }
    }
}

@c @implementation
public func AUGraphGetMaxCPULoad(_ inGraph: AUGraph?, _ outMaxLoad: UnsafeMutablePointer<Float32>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outMaxLoad else { throw .parameter }
        let output = try withGraph(inGraph) { $0.outputUnit }
        guard let output, let unit = AudioUnitTable.table.object(output) else {
            outMaxLoad.pointee = 0
            return
        }
        outMaxLoad.pointee = unit.lock.withLock {
            _ = unit.takeCPULoad()
            return unit.maximumLoad
        }
    }
}

@c @implementation
public func AUGraphConnectNodeInput(_ inGraph: AUGraph?, _ inSourceNode: AUNode, _ inSourceOutputNumber: UInt32,
                                    _ inDestNode: AUNode, _ inDestInputNumber: UInt32) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph throws(UnitStatus) in
            _ = try graph.index(of: inSourceNode)
            _ = try graph.index(of: inDestNode)
            guard inSourceNode != inDestNode else { throw .invalidConnection }
            try graph.change { list throws(UnitStatus) in
                // An input takes one source: a second is an error, as on iOS.
                guard !list.contains(where: { AUGraphObject.destination($0) == (inDestNode, inDestInputNumber) }) else {
                    throw .invalidConnection
                }
                var interaction = AUNodeInteraction()
                interaction.nodeInteractionType = kAUNodeInteraction_Connection
                interaction.nodeInteraction.connection = AudioUnitNodeConnection(
                    sourceNode: inSourceNode, sourceOutputNumber: inSourceOutputNumber, destNode: inDestNode, destInputNumber: inDestInputNumber)
                list.append(interaction)
            }
        }
    }
}

@c @implementation
public func AUGraphSetNodeInputCallback(_ inGraph: AUGraph?, _ inDestNode: AUNode, _ inDestInputNumber: UInt32,
                                        _ inInputCallback: UnsafePointer<AURenderCallbackStruct>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inInputCallback else { throw .parameter }
        try withGraph(inGraph) { graph throws(UnitStatus) in
            _ = try graph.index(of: inDestNode)
            try graph.change { list in
                list.removeAll { AUGraphObject.destination($0) == (inDestNode, inDestInputNumber) }
                var interaction = AUNodeInteraction()
                interaction.nodeInteractionType = kAUNodeInteraction_InputCallback
                interaction.nodeInteraction.inputCallback = AUNodeRenderCallback(
                    destNode: inDestNode, destInputNumber: inDestInputNumber, cback: inInputCallback.pointee)
                list.append(interaction)
            }
        }
    }
}

@c @implementation
public func AUGraphDisconnectNodeInput(_ inGraph: AUGraph?, _ inDestNode: AUNode, _ inDestInputNumber: UInt32) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph throws(UnitStatus) in
            _ = try graph.index(of: inDestNode)
            try graph.change { list in list.removeAll { AUGraphObject.destination($0) == (inDestNode, inDestInputNumber) } }
        }
    }
}

@c @implementation
public func AUGraphClearConnections(_ inGraph: AUGraph?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        try withGraph(inGraph) { graph throws(UnitStatus) in try graph.change { $0.removeAll() } }
    }
}

@c @implementation
public func AUGraphGetNumberOfInteractions(_ inGraph: AUGraph?, _ outNumInteractions: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outNumInteractions else { throw .parameter }
        outNumInteractions.pointee = try withGraph(inGraph) { UInt32($0.planned.count) }
    }
}

@c @implementation
public func AUGraphGetInteractionInfo(_ inGraph: AUGraph?, _ inInteractionIndex: UInt32,
                                      _ outInteraction: UnsafeMutablePointer<AUNodeInteraction>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outInteraction else { throw .parameter }
        outInteraction.pointee = try withGraph(inGraph) { graph throws(UnitStatus) -> AUNodeInteraction in
            let list = graph.planned
            guard Int(inInteractionIndex) < list.count else { throw .parameter }
            return list[Int(inInteractionIndex)]
        }
    }
}

/// The interactions that involve `node` (as destination or source).
private func interactions(of node: AUNode, in graph: AUGraphObject) -> [AUNodeInteraction] {
    graph.planned.filter {
        AUGraphObject.destination($0).node == node
            || ($0.nodeInteractionType == kAUNodeInteraction_Connection && $0.nodeInteraction.connection.sourceNode == node)
    }
}

@c @implementation
public func AUGraphCountNodeInteractions(_ inGraph: AUGraph?, _ inNode: AUNode, _ outNumInteractions: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let outNumInteractions else { throw .parameter }
        outNumInteractions.pointee = try withGraph(inGraph) { graph throws(UnitStatus) -> UInt32 in
            _ = try graph.index(of: inNode)
            return UInt32(interactions(of: inNode, in: graph).count)
        }
    }
}

@c @implementation
public func AUGraphGetNodeInteractions(_ inGraph: AUGraph?, _ inNode: AUNode, _ ioNumInteractions: UnsafeMutablePointer<UInt32>?,
                                       _ outInteractions: UnsafeMutablePointer<AUNodeInteraction>?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let ioNumInteractions, let outInteractions else { throw .parameter }
        let list = try withGraph(inGraph) { graph throws(UnitStatus) -> [AUNodeInteraction] in
            _ = try graph.index(of: inNode)
            return interactions(of: inNode, in: graph)
        }
        let count = min(Int(ioNumInteractions.pointee), list.count)
        for index in 0..<count { outInteractions[index] = list[index] }
        ioNumInteractions.pointee = UInt32(count)
    }
}

@c @implementation
public func AUGraphAddRenderNotify(_ inGraph: AUGraph?, _ inCallback: AURenderCallback?, _ inRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inCallback else { throw .parameter }
        let output = try withGraph(inGraph) { graph throws(UnitStatus) -> AudioUnit in
            // The graph's notifications are its output unit's (iOS calls them around its render).
            guard let output = graph.outputUnit else { throw .outputNode }
            return output
        }
        let status = AudioUnitAddRenderNotify(output, inCallback, inRefCon)
        guard status == noErr else { throw UnitStatus(status: status) }
    }
}

@c @implementation
public func AUGraphRemoveRenderNotify(_ inGraph: AUGraph?, _ inCallback: AURenderCallback?, _ inRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    osStatus { () throws(UnitStatus) in
        guard let inCallback else { throw .parameter }
        let output = try withGraph(inGraph) { $0.outputUnit }
        guard let output else { throw .outputNode }
        let status = AudioUnitRemoveRenderNotify(output, inCallback, inRefCon)
        guard status == noErr else { throw UnitStatus(status: status) }
    }
}
