/// The word lists the demo catalog is generated from.
enum CatalogWords {
    /// Per category: eight product nouns, selling points, and a dollar price range.
    struct Category {
        let name: String
        let nouns: [String]
        let features: [String]
        let dollars: ClosedRange<Int>
    }

    static let adjectives = ["Classic", "Deluxe", "Compact", "Essential", "Heritage", "Modern", "Rustic", "Premium"]

    static let closings = [
        "Ships in recyclable packaging.",
        "Backed by our 30-day return promise.",
        "A customer favourite for years.",
        "Gift wrapping available on request.",
        "Made in small batches.",
        "Restocked every season.",
    ]

    /// Cent endings of prices, e.g. $12.99.
    static let centEndings = [0, 49, 95, 99]

    static let categories: [Category] = [
        Category(
            name: "books",
            nouns: ["Field Guide", "Cookbook", "Mystery Novel", "Poetry Collection", "World Atlas", "Sci-Fi Anthology", "Biography", "Travel Journal"],
            features: ["bound in a lay-flat hardcover", "with illustrations on every spread", "a favourite of book clubs", "printed on acid-free paper"],
            dollars: 8...45
        ),
        Category(
            name: "coffee",
            nouns: ["Espresso Roast", "Pour-Over Kettle", "Burr Grinder", "French Press", "Cold Brew Kit", "Travel Mug", "Single-Origin Beans", "Milk Frother"],
            features: ["made for slow weekend mornings", "loved by home baristas", "sourced from small farms", "designed for a clean, bright cup"],
            dollars: 9...180
        ),
        Category(
            name: "electronics",
            nouns: ["Wireless Earbuds", "USB-C Hub", "Bluetooth Speaker", "Power Bank", "Mechanical Keyboard", "Desk Lamp", "Webcam", "Smart Plug"],
            features: ["with a two-year warranty", "charged over USB-C", "tuned for low latency", "built around an energy-saving chip"],
            dollars: 15...250
        ),
        Category(
            name: "garden",
            nouns: ["Pruning Shears", "Watering Can", "Seed Starter Kit", "Raised Bed", "Garden Gloves", "Hose Nozzle", "Compost Bin", "Bird Feeder"],
            features: ["made from weatherproof steel", "sized for balconies and small plots", "trusted by allotment growers", "with an ergonomic soft grip"],
            dollars: 6...90
        ),
        Category(
            name: "kitchen",
            nouns: ["Chef's Knife", "Cutting Board", "Cast Iron Skillet", "Mixing Bowl Set", "Dutch Oven", "Spice Rack", "Salad Spinner", "Measuring Cups"],
            features: ["dishwasher safe", "forged from high-carbon steel", "made to last for decades", "sized for weeknight cooking"],
            dollars: 7...160
        ),
        Category(
            name: "toys",
            nouns: ["Building Blocks", "Jigsaw Puzzle", "Plush Bear", "Stunt Kite", "Wooden Train Set", "Board Game", "Glow Yo-Yo", "Rubber Duck"],
            features: ["for ages 3 and up", "made from sustainably sourced wood", "with rounded, child-safe edges", "perfect for rainy afternoons"],
            dollars: 5...70
        ),
    ]
}
